"""The README's walkthrough shows what the server answers (R9, R11, R14, R16, R3).

`GINREF_WRITE_README=1` rewrites the README's blocks from the run instead of
failing (see tests/readme_walkthrough.py).
"""

from __future__ import annotations

import os

from tests.readme_walkthrough import README, normalise, parse_block, parse_curl, replay, write_readme


def test_the_readme_walkthrough_shows_what_the_app_answers_to_its_requests() -> None:
    if os.environ.get("GINREF_WRITE_README") == "1":
        write_readme()
    shown_and_answered = list(replay(README.read_text(encoding="utf-8")))
    assert len(shown_and_answered) == 3
    for shown, answered in shown_and_answered:
        assert normalise(shown) == normalise(answered)


def test_the_walkthrough_replays_each_curl_request_as_written() -> None:
    command = parse_block(
        "$ curl -s -i -X POST localhost:5000/api/v1/games/1/hands -H 'If-Match: \"g1v1\"' \\\n"
        '       -H "Authorization: Bearer grk_abc" \\\n'
        '       -d \'{"knocker": "box",\n'
        '            "knocker_hand": {}}\'\n'
        "HTTP/1.1 201 CREATED\n"
        "\n"
        "{}\n"
        "$ # a comment\n"
    )
    assert [c.output for c in command] == ["HTTP/1.1 201 CREATED\n\n{}", ""]
    request = parse_curl(command[0].text)
    assert request is not None
    assert (request.method, request.path, request.include) == ("POST", "/api/v1/games/1/hands", True)
    assert request.headers == {"If-Match": '"g1v1"', "Authorization": "Bearer grk_abc"}
    assert request.data == '{"knocker": "box",\n            "knocker_hand": {}}'
    assert parse_curl(command[1].text) is None


def test_a_timestamp_and_a_key_are_the_only_parts_of_an_answer_left_out_of_the_comparison() -> None:
    body = '{"created_at":"2026-12-04T18:40:21.195930+00:00","id":1,"key":"grk_Kil8hIs-_x"}'
    assert normalise(body) == '{"created_at":"<timestamp>","id":1,"key":"grk_<key>"}'
    assert normalise(body.replace('"id":1', '"id":2')) != normalise(body)
