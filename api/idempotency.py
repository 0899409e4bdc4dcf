"""Safe retries: a write sent with an ``Idempotency-Key`` is done once.

Scoped by (credential, method, path): a write made with a key is replayed
only to that key; a write that needs no key (creating a player, a league, a
game outside a league, an import) is replayed to whoever holds the
``Idempotency-Key`` itself, which is why it must be long and random (a UUID
will do). The lookup runs inside the write's transaction, after the write is
authenticated (and its game locked), so a retry waits for the first request
and then gets its answer; the same key with another body (or query string)
is a 422.

The response is stored in the same transaction as the write it answers
(``store``, called by the request's commit in app.py): a committed write
always has its record, a rolled-back one never does. Only successful
responses are stored: a refused write changed nothing and may be sent again.
Records are kept 24 hours. No secret is kept in plaintext: the record is
found by a hash, and its body (which may hold a new key) is encrypted with
AES-GCM under a key derived (HKDF) from the ``Idempotency-Key``.
"""

from __future__ import annotations

import hashlib
import os
import random
from dataclasses import dataclass
from datetime import timedelta

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import Response, g, request
from sqlalchemy import RowMapping

from api.errors import IDEMPOTENCY, Problem
from models.security import add_idempotency_record, committed_idempotency_record, find_idempotency_record

HEADER = "Idempotency-Key"
KEEP = timedelta(hours=24)
STORED_HEADERS = ("Content-Type", "Location", "ETag")
MIN_LENGTH, MAX_LENGTH, MIN_DISTINCT = 16, 255, 8
RULE = (
    f"{HEADER} must be {MIN_LENGTH} to {MAX_LENGTH} visible ASCII characters, random (a UUID will do), "
    f"with at least {MIN_DISTINCT} different characters"
)


@dataclass(frozen=True, slots=True)
class Pending:
    """A write being made under an Idempotency-Key: what its record will hold."""

    lookup: str
    body_hash: str
    secret: bytes


def _valid(key: str) -> bool:
    return MIN_LENGTH <= len(key) <= MAX_LENGTH and all("!" <= c <= "~" for c in key) and len(set(key)) >= MIN_DISTINCT


def _pending(scope: str) -> Pending | None:
    key = request.environ.get("HTTP_IDEMPOTENCY_KEY")  # HEADER
    if key is None:
        return None
    if not _valid(key):
        raise Problem(422, RULE, type=IDEMPOTENCY, errors={HEADER: [RULE]})
    raw = key.encode("ascii")
    lookup = hashlib.sha256(
        b"\0".join((scope.encode(), request.method.encode(), request.path.encode("utf-8", "surrogateescape"), raw))
    ).hexdigest()
    secret = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"ginref idempotent response").derive(raw)
    return Pending(lookup, _fingerprint(), secret)


def _fingerprint() -> str:
    """What a retry must repeat: the body, and the query string when there
    is one (an import's ``players``), so that the same key with another of
    either is a 422, never the first answer replayed."""
    body = hashlib.sha256(request.get_data())
    if not request.query_string:
        return body.hexdigest()  # as before there was a query to cover: records already stored still match
    return hashlib.sha256(b"\0".join((body.digest(), request.query_string))).hexdigest()


def _find(pending: Pending) -> RowMapping | None:
    return find_idempotency_record(pending.lookup, KEEP)  # expired: deleted, this request takes its place


def _replay(record: RowMapping, pending: Pending) -> Response:
    if record["body_hash"] != pending.body_hash:
        raise Problem(
            422,
            f"this {HEADER} was used with a different request body or query string",
            type=IDEMPOTENCY,
            errors={HEADER: ["already used with a different body or query string"]},
        )
    try:
        sealed = record["body"]
        body = AESGCM(pending.secret).decrypt(sealed[:12], sealed[12:], pending.lookup.encode())
    except InvalidTag:  # cannot be: the lookup hash covers the key; never replay what does not decrypt
        raise Problem(422, f"this {HEADER} does not open its stored response", type=IDEMPOTENCY) from None
    response = Response(body, status=record["status"])
    for name, value in record["headers"].items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response


def begin(scope: str) -> Response | None:
    """In the write's transaction, after it is authenticated: the stored
    answer to a retry, or None to go on (remembering what to store)."""
    pending = _pending(scope)
    if pending is None:
        return None
    record = _find(pending)
    if record is not None:
        return _replay(record, pending)
    g.idempotency = pending
    return None


def replay_only(scope: str) -> Response | None:
    """The stored answer for this scope, if any, without starting a write."""
    pending = _pending(scope)
    record = None if pending is None else _find(pending)
    return None if record is None or pending is None else _replay(record, pending)


def store(pending: Pending, response: Response) -> None:
    """Add the record of ``response`` to the write's transaction."""
    nonce = os.urandom(12)
    body = nonce + AESGCM(pending.secret).encrypt(nonce, response.get_data(), pending.lookup.encode())
    add_idempotency_record(
        lookup=pending.lookup,
        body_hash=pending.body_hash,
        status=response.status_code,
        headers={h: response.headers[h] for h in STORED_HEADERS if h in response.headers},
        body=body,
        expire_older_than=KEEP if random.random() < 0.01 else None,  # now and then, the expired ones go
    )


def committed(pending: Pending) -> Response | None:
    """After a commit that failed or conflicted: the stored answer, if the
    write (this one or a concurrent twin) is in the database after all."""
    record = committed_idempotency_record(pending.lookup)
    return None if record is None else _replay(record, pending)
