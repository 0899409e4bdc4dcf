"""The table page is served by the app: static files only, from its own origin."""

from __future__ import annotations

from flask.testing import FlaskClient

from api.addresses import page_addresses
from app import PAGE_POLICY


def test_the_table_page_is_served_at_the_root_with_a_same_origin_policy(client: FlaskClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert r.mimetype == "text/html"
    assert r.headers["Content-Security-Policy"] == PAGE_POLICY
    assert "default-src 'self'" in PAGE_POLICY
    assert b'<script type="module" src="/web/app.js">' in r.data


def test_the_page_modules_and_catalogs_are_served_under_web(client: FlaskClient) -> None:
    assert client.get("/web/app.js").mimetype == "text/javascript"
    assert client.get("/web/i18n/ko.json").get_json()["role.box"] == "상자"
    assert client.get("/sw.js").mimetype == "text/javascript"  # at the root: its scope is the whole page
    assert client.get("/web/nothing.js").status_code == 404
    assert client.get("/web/../app.py").status_code == 404


def test_the_api_keeps_its_own_answers_beside_the_page(client: FlaskClient) -> None:
    assert client.get("/api/v1/nothing").status_code == 404
    assert client.get("/health").get_json() == {"status": "ok"}


def test_the_address_printed_for_the_table_names_the_lan_when_listening_on_all_addresses() -> None:
    local = page_addresses("127.0.0.1:5000")
    assert local == ["http://127.0.0.1:5000/ (this machine only: HOST=0.0.0.0 make serve for the phones at the table)"]
    everywhere = page_addresses("0.0.0.0:5000")
    assert everywhere[-1] == "http://127.0.0.1:5000/ (this machine)"
    lan = everywhere[0]
    assert lan.endswith(":5000/ (phones on the same Wi-Fi open this)") or lan.startswith("no network")
    assert page_addresses("192.168.1.20:8000") == ["http://192.168.1.20:8000/"]
