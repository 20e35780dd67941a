"""Unit tests of lockservice (run from this folder: python -m pytest -q test_lockservice.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lockservice import SERVER, LockClient, LockServer, Message, Network  # noqa: E402


def service(n: int = 3):
    net = Network()
    server = LockServer(net)
    clients = {f"c{k}": LockClient(f"c{k}", net) for k in range(1, n + 1)}
    return net, server, clients


def serve_all(net: Network, server: LockServer) -> None:
    while net.pending_for(SERVER):
        server.handle(net.pending_for(SERVER)[0])


def test_grants_in_fifo_order_of_arrival():
    net, server, cs = service()
    for c in ("c2", "c3", "c1"):
        cs[c].request()
    serve_all(net, server)
    assert list(server.queue) == ["c2", "c3", "c1"]
    order = []
    for _ in range(3):
        holder = next(c for c in cs.values() if c.granted() is not None)
        holder.enter(holder.granted())
        assert [c.pc for c in cs.values()].count("cs") == 1
        order.append(holder.cid)
        holder.release()
        serve_all(net, server)
    assert order == ["c2", "c3", "c1"] and not server.queue and not net.in_flight


def test_lock_request_while_held_waits_without_grant():
    net, server, cs = service(2)
    cs["c1"].request()
    serve_all(net, server)
    cs["c1"].enter(cs["c1"].granted())
    cs["c2"].request()
    serve_all(net, server)
    assert cs["c2"].granted() is None and list(server.queue) == ["c1", "c2"]


def test_relock_overtaking_unlock_queues_the_client_twice():
    net, server, cs = service(1)
    c = cs["c1"]
    c.request()
    serve_all(net, server)
    c.enter(c.granted())
    c.release()
    c.request()
    server.handle(next(m for m in net.in_flight if m.type == "lock"))   # lock overtakes unlock
    assert list(server.queue) == ["c1", "c1"] and c.granted() is None
    server.handle(next(m for m in net.in_flight if m.type == "unlock"))
    assert list(server.queue) == ["c1"] and c.granted() is not None


def test_server_refuses_a_grant_message():
    net, server, _ = service(1)
    m = Message("grant", "c1", SERVER)
    net.send(m)
    with pytest.raises(ValueError):
        server.handle(m)
