"""Safe retries: a write sent with an ``Idempotency-Key`` is done once.

Scoped by (credential or client address, method, path). The first response is
stored and returned again for a retry with the same body, before any other
check; the same key with another body is a 422; a retry that arrives while
the first is still being handled is a 409. Records are kept 24 hours.
"""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, datetime, timedelta

from flask import Flask, Response, g, request
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from api.errors import Problem
from api.guards import WRITE_METHODS, bearer_key
from models import IdempotencyRecord, db, write_transaction
from models.security import hash_key

HEADER = "Idempotency-Key"
KEEP = timedelta(hours=24)
ABANDONED = timedelta(minutes=5)  # an in-progress record this old belongs to a dead worker
STORED_HEADERS = ("Content-Type", "Location", "ETag")
TYPE = "https://ginref.org/problems/idempotency"


def _scope() -> str:
    key = bearer_key()
    return "key:" + hash_key(key)[:40] if key is not None else "addr:" + (request.remote_addr or "unknown")


def _lookup(scope: str, key: str) -> IdempotencyRecord | None:
    return db.session.scalar(select(IdempotencyRecord).where(
        IdempotencyRecord.scope == scope, IdempotencyRecord.method == request.method,
        IdempotencyRecord.path == request.path, IdempotencyRecord.key == key))


def _replay(record: IdempotencyRecord) -> Response:
    response = Response(record.body or b"", status=record.status)
    for name, value in (record.headers or {}).items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response


def _answer(record: IdempotencyRecord, body_hash: str) -> Response | None:
    if record.body_hash != body_hash:
        raise Problem(422, f"this {HEADER} was used with a different request body",
                      type=TYPE, errors={HEADER: ["already used with a different body"]})
    if record.status is not None:
        return _replay(record)
    return None


def before_write() -> Response | None:
    if request.method not in WRITE_METHODS:
        return None
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not 1 <= len(key) <= 255 or not key.isprintable():
        raise Problem(422, f"{HEADER} must be 1 to 255 printable characters", type=TYPE,
                      errors={HEADER: ["must be 1 to 255 printable characters"]})
    scope = _scope()
    body_hash = hashlib.sha256(request.get_data()).hexdigest()
    now = datetime.now(UTC)
    record = _lookup(scope, key)
    if record is not None:
        if record.created_at < now - KEEP or (record.status is None and record.created_at < now - ABANDONED):
            with write_transaction():
                db.session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.id == record.id))
                db.session.commit()
            record = None
        else:
            replay = _answer(record, body_hash)
            db.session.rollback()
            if replay is not None:
                return replay
            raise Problem(409, "a request with this Idempotency-Key is still being handled", type=TYPE)
    db.session.rollback()
    with write_transaction():
        record = IdempotencyRecord(scope=scope, method=request.method, path=request.path, key=key,
                                   body_hash=body_hash, created_at=now)
        db.session.add(record)
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            record = _lookup(scope, key)
            if record is not None:
                replay = _answer(record, body_hash)
                if replay is not None:
                    return replay
            raise Problem(409, "a request with this Idempotency-Key is still being handled", type=TYPE) from None
    g.idempotency_record = record.id
    if random.random() < 0.01:
        _purge(now)
    return None


def after_write(response: Response) -> Response:
    record_id = g.pop("idempotency_record", None)
    if record_id is None or response.headers.get("Idempotent-Replayed"):
        return response
    db.session.rollback()
    with write_transaction():
        record = db.session.get(IdempotencyRecord, record_id)
        if record is not None:
            if response.status_code >= 500:
                db.session.delete(record)  # nothing was done: let the retry do it
            else:
                record.status = response.status_code
                record.headers = {h: response.headers[h] for h in STORED_HEADERS if h in response.headers}
                record.body = response.get_data()
        db.session.commit()
    return response


def _purge(now: datetime) -> None:
    with write_transaction():
        db.session.execute(delete(IdempotencyRecord).where(IdempotencyRecord.created_at < now - KEEP))
        db.session.commit()


def init_idempotency(app: Flask) -> None:
    app.before_request(before_write)
    app.after_request(after_write)
