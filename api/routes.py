"""Decorator stacks that routes of more than one blueprint declare alike,
each as one decorator that applies the same decorators in the same order."""

from __future__ import annotations

from collections.abc import Callable

from marshmallow import Schema

from api.body import Blueprint
from api.docs import F, open_write


def open_create(blp: Blueprint, body: Schema, created: type[Schema]) -> Callable[[F], F]:
    """A write anyone may make (api.docs.open_write) that creates what
    ``body`` describes and answers it, 201, as ``created``."""

    def decorate(view: F) -> F:  # the stack it stands for, applied from the bottom up
        view = open_write()(view)
        view = blp.response(201, created)(view)
        return blp.arguments(body)(view)

    return decorate
