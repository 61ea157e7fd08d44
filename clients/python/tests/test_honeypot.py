"""honeypot-py itself (pinned, from PyPI) against Vigil: a backend switches by changing URL and key."""

from __future__ import annotations

import json
import uuid
from typing import Dict

import honeypot
from flask import Flask
from flask import request as flask_request
from honeypot import honeypot as Honeypot

from conftest import TOR_IP

HONEYPOT_VERSION = "0.2.19"


def sdk(server) -> Honeypot:
    # The SDK sends its key headers only when it also has a secret; Vigil ignores the secret.
    return Honeypot(server.url, api_key=server.write_key, api_secret="unused-by-vigil")


def test_the_pinned_sdk_is_the_one_under_test() -> None:
    from honeypot.client import __version__

    assert __version__ == HONEYPOT_VERSION and honeypot.honeypot is Honeypot


def test_track_has_tag_and_feature(server) -> None:
    user = f"hp-{uuid.uuid4().hex[:10]}"
    first = sdk(server).set_ip(TOR_IP).identify(user).track("login", {"plan": "gold"})
    assert first.status == 200 and first.error is None, first.error
    assert first.has_tag("tor") and not first.has_tag("vpn")
    assert first.feature("logins_1h.count") == 1
    assert first.get("risk_score") >= 0.8
    second = sdk(server).set_ip("203.0.113.70").identify(user).track("login")
    assert not second.has_tag("tor") and second.feature("logins_1h.count") == 2

    stored = server.stored_events(identity=user)
    assert sorted(e["ip"] for e in stored) == sorted([TOR_IP, "203.0.113.70"])
    assert any(e["properties"].get("plan") == "gold" for e in stored)


def test_a_flask_app_on_the_sdk_switches_by_url_and_key(server) -> None:
    """The README's migration: only the URL and key change; has_tag, event_paths and track() keep working."""
    hp = sdk(server).event_paths(post={"transfer": "/accounts/*/transfer"})
    app = Flask(__name__)

    @app.post("/login")
    def login() -> Dict:
        response = hp.with_request(flask_request).identify(flask_request.json["user"]).track("login")
        return {"decision": "deny" if response.has_tag("tor") else "allow", "status": response.status}

    @app.post("/accounts/<account>/transfer")
    def transfer(account: str) -> Dict:
        return {"ok": True}

    @app.after_request
    def auto_track(response):  # type: ignore[no-untyped-def]
        # honeypot-py's event_paths: track() without a name takes it from the request's method and path.
        if flask_request.path != "/login":
            hp.with_request(flask_request).identify(flask_request.json["user"]).track()
        return response

    user = f"hp-flask-{uuid.uuid4().hex[:10]}"
    client = app.test_client()
    secret_headers = {"X-Forwarded-For": TOR_IP, "Cookie": "session=end-user-cookie", "Authorization": "Basic ZW5kLXVzZXI="}
    answer = client.post("/login", json={"user": user, "password": "end-user-password"}, headers=secret_headers)
    assert answer.get_json() == {"decision": "deny", "status": 200}
    client.post("/accounts/7/transfer?token=end-user-query", json={"user": user}, headers={"X-Forwarded-For": "203.0.113.71"})

    stored = {e["name"]: e for e in server.stored_events(identity=user)}
    assert sorted(stored) == ["login", "transfer"]
    assert stored["login"]["ip"] == TOR_IP and "tor" in stored["login"]["tags"]
    assert stored["transfer"]["properties"]["request_path"] == "/accounts/7/transfer"
    # The SDK sends the original request's headers, body and query; Vigil never stores them.
    text = json.dumps(list(stored.values()))
    for secret in ("end-user-cookie", "ZW5kLXVzZXI=", "end-user-password", "end-user-query", "orig_request"):
        assert secret not in text
