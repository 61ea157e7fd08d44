"""The end-user forwarding contract against the real server: a backend's forwarded language reaches the handprint."""

from __future__ import annotations

from typing import Optional

import httpx

from vigil_server import VigilServer

UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0"
USER_IP = "192.0.2.44"


def through_backend(make_client, errors, language: str) -> Optional[str]:
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/login",
        "REMOTE_ADDR": USER_IP,
        "HTTP_USER_AGENT": UA,
        "HTTP_ACCEPT_LANGUAGE": language,
    }
    insights = make_client().with_request(environ).track_sync("login")
    assert not insights.fail_open, errors
    return insights.handprint_id


def direct(server: VigilServer, language: str) -> str:
    answer = httpx.post(
        f"{server.url}/events",
        json={"event": "login", "properties": {"ip_address": USER_IP}},
        headers={"authorization": f"Bearer {server.write_key}", "user-agent": UA, "accept-language": language},
    )
    assert answer.status_code == 200, answer.text
    handprint: str = answer.json()["handprint_id"]
    return handprint


def test_a_forwarded_language_changes_the_handprint_as_a_direct_request_does(make_client, server, errors) -> None:
    fr = through_backend(make_client, errors, "fr-FR,fr;q=0.9")
    ja = through_backend(make_client, errors, "ja-JP,ja;q=0.9")
    assert fr != ja
    assert through_backend(make_client, errors, "fr-FR") == fr
    assert direct(server, "fr-FR,fr;q=0.9") == fr
    assert direct(server, "ja") != fr
    assert direct(server, "ja-JP") == ja
