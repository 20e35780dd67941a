"""`specula init`: proposals from the code index, the task folder, and `specula model` on it."""

from __future__ import annotations

import json

import pytest

from specula.tasks import load_task
from specula.code import index_repo
from specula.onboard import ProposeOptions, init_repo, module_name, propose

BUNDLED = ["spinlock", "mutex", "rwmutex", "ringbuffer", "raft", "zab_election", "locksvc"]


@pytest.mark.parametrize("name", BUNDLED)
def test_init_finds_the_bundled_systems_actions(bare_system, name):
    """With task.yaml removed, init proposes every action the bundled task requires (the expected
    names are the task file's, written by hand, not our output) and writes a loadable task."""
    repo, want = bare_system(name)
    result = init_repo(repo)
    task = load_task(repo)
    assert set(want) <= set(task.target_actions), (want, task.target_actions)
    assert task.spec_module == module_name(name) and task.source_files
    for f in task.source_files:
        assert (repo / f).is_file()
    from specula.phases.invariants import load_templates
    from specula.traces import load_mapping

    load_mapping(repo / ".specula" / "mapping.yaml")
    assert [t.name for t in load_templates(repo / ".specula" / "invariants.yaml")]
    assert (repo / ".specula" / "proposal.json").is_file() and result.written


# What the names alone find, with the code's own trace calls ignored (expected = task files).
INDEX_ONLY = {
    "spinlock": {"AcquireLock", "ReleaseLock"},
    "mutex": {"AcquireLock", "TryAcquireLock", "ReleaseLock"},
    "rwmutex": {"AcquireReadLock", "AcquireWriteLock", "AcquireUpReadLock", "ReleaseLock"},
    "ringbuffer": {"Push", "Pop"},
    "raft": {"ElectionTimeout", "HandleVoteRequest", "ClientProposal", "HandleAppendEntries", "HandleHeartbeat"},
    "zab_election": {"HandleNotification"},
}


@pytest.mark.parametrize("name", sorted(INDEX_ONLY))
def test_names_alone_find_lock_entry_points_handlers_and_timers(bare_system, name):
    repo, _ = bare_system(name)
    p = propose(index_repo(repo), "", opts=ProposeOptions(traced=False))
    assert INDEX_ONLY[name] <= set(p.action_names()), p.render()
    assert all(a.kind != "traced" for a in p.actions)


def test_entry_points_and_state_of_the_mutex(bare_system):
    repo, _ = bare_system("mutex")
    p = propose(index_repo(repo), "", opts=ProposeOptions(traced=False))
    entries = {a.name: a.entry for a in p.actions}
    assert entries["AcquireLock"] in ("Mutex.lock", "Mutex.acquireLock")
    assert entries["TryAcquireLock"] == "Mutex.tryLock" and entries["ReleaseLock"] == "Mutex.unlock"
    assert "locked" in {s.field for s in p.state}
    points = {pt.action: pt for pt in p.instrumentation}
    assert points["ReleaseLock"].file == "src/Mutex.java"


def test_state_and_traced_entry_of_zab(bare_system):
    repo, _ = bare_system("zab_election")
    p = propose(index_repo(repo), "fast leader election")
    acts = {a.name: a for a in p.actions}
    assert acts["HandleNotification"].entry == "FastLeaderElection.receive"
    assert acts["HandleNotification"].kind == "traced"
    fields = {s.field for s in p.state}
    assert {"logicalclock", "recvset", "state"} <= fields
    assert all(s.per_node for s in p.state if s.owner == "FastLeaderElection")
    assert p.system_type == "distributed"


def test_existing_task_needs_force(bare_system):
    from specula.errors import InputError

    repo, _ = bare_system("ringbuffer")
    init_repo(repo)
    with pytest.raises(InputError):
        init_repo(repo)
    init_repo(repo, force=True)


def test_cli_init_then_model_needs_no_module_or_action(bare_system, capsys):
    from specula.cli import main

    repo, want = bare_system("ringbuffer")
    assert main(["init", str(repo), "--focus", "single-producer single-consumer ring buffer", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["schema"] == "specula.init/1"
    assert set(want) <= {a["name"] for a in out["proposal"]["actions"]}
    assert main(["model", str(repo), "--print-prompt"]) == 0
    prompt = capsys.readouterr().out
    assert "Push" in prompt and "Pop" in prompt
    from specula.tasks import load_target

    t = load_target(str(repo))
    assert t.spec_module == "ringbuffer" and {"Push", "Pop"} <= set(t.target_actions)
    assert t.focus == "single-producer single-consumer ring buffer"


def test_cli_init_on_a_missing_folder_is_an_input_error(tmp_path, capsys):
    from specula.cli import main

    assert main(["init", str(tmp_path / "nope")]) == 2
    assert "not a repository directory" in capsys.readouterr().err


def test_an_llm_refines_the_proposal_through_the_real_sdk(bare_system):
    """The scripted server answers with a submit_proposal call; unknown entries are reported, not invented."""
    from scripted_server import ScriptedServer

    from specula.agent.providers import RetryPolicy, make_provider

    repo, _ = bare_system("zab_election")
    reply = {"tool_calls": [{"name": "submit_proposal", "arguments": {
        "module": "zookeeper",
        "actions": [{"name": "Notification", "entry": "FastLeaderElection.send_notifications", "kind": "handler"},
                    {"name": "HandleNotification", "entry": "FastLeaderElection.receive", "kind": "handler"},
                    {"name": "BecomeLeader", "entry": "FastLeaderElection._decide", "kind": "transition"},
                    {"name": "Imaginary", "entry": "Nowhere.nothing"}],
        "state": [{"name": "logicalclock", "owner": "FastLeaderElection", "field": "logicalclock"},
                  {"name": "ghost", "field": "no_such_field"}]}}]}
    with ScriptedServer([reply]) as server:
        provider = make_provider(f"openai-compatible/qwen3@{server.openai_url}", env={},
                                 retry=RetryPolicy(attempts=1, initial=0.01))
        result = init_repo(repo, "fast leader election", provider=provider)
        body = server.requests[0].body
    sent = json.dumps(body)
    assert "submit_proposal" in sent and "look_for_leader" in sent  # the proposal and the map went out
    p = result.proposal
    assert p.refined_by == "openai-compatible/qwen3" and p.module == "zookeeper"
    acts = {a.name: a for a in p.actions}
    assert acts["Notification"].entry == "FastLeaderElection.send_notifications"
    assert acts["Notification"].file == "zabfle/election.py" and acts["Notification"].line > 0
    assert acts["Imaginary"].entry == "" and "not found" in acts["Imaginary"].evidence
    assert [s.field for s in p.state] == ["logicalclock"]
    assert list(load_task(repo).target_actions) == ["Notification", "HandleNotification", "BecomeLeader", "Imaginary"]
