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
worker_class = "gthread"
threads = int(os.environ.get("GINREF_THREADS", "1"))
timeout = 30
graceful_timeout = 10
keepalive = 5
# Each worker touches its heartbeat file on every request: keep that file in memory.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
accesslog = os.environ.get("GINREF_ACCESS_LOG")  # e.g. "-" for stdout
# Long request lines are the app's to refuse (as problem+json), not gunicorn's (as HTML).
limit_request_line = 0
limit_request_field_size = 16384
