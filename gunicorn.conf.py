"""Production serving: `make serve-prod` (or gunicorn -c gunicorn.conf.py 'app:create_app()').

Run `flask --app app init-db` once before the workers start (the Makefile does):
several workers creating or upgrading the schema at once would collide.
Nothing that must be shared lives in process memory: the database holds the
games, keys and idempotency records; rate limits live in the storage named by
FLASK_RATELIMIT_STORAGE_URI (Redis for more than one worker or instance).
"""

import os

bind = os.environ.get("GINREF_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GINREF_WORKERS", "4"))
# gevent, answering its own errors as problem+json (serving.py): a connection is
# a greenlet, so the phones that wait on a game's events (up to 25 s each,
# holding no database connection meanwhile) cost no thread. Each worker takes
# up to worker_connections at once; at most FEED_WAITERS (app.py, 2,000) of them
# wait on the feeds, so /health, the reads and the writes always find room.
# A database connection is taken only while a request reads or writes
# (on a database server, 15 per worker, kept open: app.SERVER_POOL).
worker_class = "serving.ApiWorker"
worker_connections = int(os.environ.get("GINREF_WORKER_CONNECTIONS", "3000"))
timeout = 30
graceful_timeout = 10
keepalive = 5
# Each worker touches its heartbeat file on every request: keep that file in memory.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = os.environ.get("GINREF_ACCESS_LOG")  # e.g. "-" for stdout
# What gunicorn refuses itself (as problem+json, see serving.py): a request line
# over 8190 bytes (its maximum; 0, "unlimited", would let one request line fill
# the memory), more than 50 header fields, one over 32 KiB (a 20,000-character
# bearer token reaches the app and gets its 401), a head over 50 x 32 KiB in all.
# gunicorn's parser takes time quadratic in the size of the head (0.7 s of CPU
# for 1.6 MB): the number of fields keeps that bound where it was (100 x 16 KiB).
limit_request_line = 8190
limit_request_fields = 50
limit_request_field_size = 32768


def post_worker_init(worker: object) -> None:
    """Once a worker has built the app: its objects (schemas, the spec, the
    ORM's tables, compiled statements), made once and kept for the worker's
    life, leave the garbage collector's view. Each full collection scanned
    them all again, a cost every request shared (bench/limit.py measures
    with the same freeze)."""
    import gc

    gc.collect()
    gc.freeze()
