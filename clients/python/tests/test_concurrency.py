"""500 events from 10 threads and 10 asyncio tasks through one client: each stored once, as its own."""

from __future__ import annotations

import asyncio
import threading
import uuid

from vigil import Vigil

PER_WORKER = 25


def environ(ip: str, device: str) -> dict:
    # A WSGI request from a trusted proxy on loopback, forwarding for `ip`.
    return {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/pay",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_X_FORWARDED_FOR": ip,
        "HTTP_X_VIGIL_DEVICE_ID": device,
        "HTTP_USER_AGENT": "ConcurrencyTest/1.0",
    }


def expected(run: str, worker: str, n: int) -> dict:
    w = int(worker[1:])
    offset = 0 if worker[0] == "t" else 100
    return {
        "identity": f"{run}-{worker}-{n}@example.com",
        "ip": f"198.51.{offset + w}.{n + 1}",
        "device": f"{run}-dev-{worker}-{n}",
    }


async def test_threads_and_tasks_never_share_identity_or_ip(make_client, server, errors) -> None:
    run = uuid.uuid4().hex[:8]
    root: Vigil = make_client(trusted_proxies=["loopback"], timeout=30)
    barrier = threading.Barrier(10)

    def thread_worker(worker: str) -> None:
        barrier.wait()
        for n in range(PER_WORKER):
            e = expected(run, worker, n)
            root.with_request(environ(e["ip"], e["device"])).identify(e["identity"]).track(
                "conc", {"n": n, "worker": worker, "run": run}
            )

    async def task_worker(worker: str) -> list:
        answers = []
        for n in range(PER_WORKER):
            e = expected(run, worker, n)
            context = root.with_request(environ(e["ip"], e["device"])).identify(e["identity"])
            await asyncio.sleep(0)  # let the other tasks build their contexts in between
            answers.append(await context.track_async("conc", {"n": n, "worker": worker, "run": run}))
        return answers

    threads = [threading.Thread(target=thread_worker, args=(f"t{i}",)) for i in range(10)]
    for thread in threads:
        thread.start()
    results = await asyncio.gather(*(task_worker(f"a{i}") for i in range(10)))
    for thread in threads:
        thread.join()
    assert await root.aflush(timeout=60)

    answers = [insights for per_task in results for insights in per_task]
    assert len(answers) == 250 and not any(a.fail_open for a in answers), errors
    assert errors == []

    stored = [e for e in server.stored_events(event="conc") if e["properties"]["run"] == run]
    assert len(stored) == 500
    seen = set()
    for event in stored:
        props = event["properties"]
        e = expected(run, props["worker"], props["n"])
        assert (event["identity"], event["ip"], event["deviceId"]) == (e["identity"], e["ip"], e["device"])
        seen.add(event["identity"])
    assert len(seen) == 500
