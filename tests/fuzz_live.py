"""Schemathesis over the whole spec against a live gunicorn server (4 workers).

Run by .ci/run (`make fuzz-live`): seeds players, a league and a game in it,
then fuzzes every operation (examples, coverage, fuzzing and stateful phases)
with the league's key, checking that no response is a server error and every
response conforms to openapi.yaml (status, content type, schema, headers).
Bounded by --max-examples per operation and a time budget. Exits non-zero on
any failure.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_schema_conformance,response_headers_conformance")


def main() -> int:
    import requests

    from tests.live import LiveServer

    max_examples = sys.argv[1] if len(sys.argv) > 1 else "25"
    with tempfile.TemporaryDirectory() as tmp, LiveServer(f"sqlite:///{tmp}/fuzz.sqlite3", workers=4) as server:
        base = server.base
        ids = [requests.post(f"{base}/api/v1/players", json={"name": n}, timeout=10).json()["id"]
               for n in ("Ann", "Bob", "Cy")]
        league = requests.post(f"{base}/api/v1/leagues", json={"name": "Fuzz", "members": ids}, timeout=10).json()
        auth = {"Authorization": f"Bearer {league['key']}"}
        game = requests.post(f"{base}/api/v1/games", headers=auth, timeout=10, json={
            "players": ids, "cut": {str(ids[0]): "KS", str(ids[1]): "7H", str(ids[2]): "2D"},
            "league_id": league["id"]})
        requests.post(f"{base}/api/v1/games/{game.json()['id']}/hands", timeout=10,
                      headers={**auth, "If-Match": game.headers["ETag"]},
                      json={"knocker": "box", "knocker_deadwood_count": 4, "defender_deadwood_count": 30})
        command = [str(Path(sys.executable).parent / "schemathesis"), "run", f"{base}/openapi.json",
                   "--checks", CHECKS, "--phases", "examples,coverage,fuzzing,stateful",
                   "--header", f"Authorization: Bearer {league['key']}",
                   "--max-examples", max_examples, "--request-timeout", "20",
                   "--workers", "2", "--seed", "20261130", "--no-color"]
        result = subprocess.run(command, cwd=ROOT, timeout=900)
        if result.returncode != 0:
            print(server.log()[-5000:])
        return result.returncode


if __name__ == "__main__":
    sys.exit(main())
