"""The `specula code ...` commands: exit codes, text and JSON."""

from __future__ import annotations

import json

from specula.cli import main


def test_index_json(fixtures, capsys):
    assert main(["code", "index", str(fixtures / "go"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["files"] == 2 and data["languages"] == {"go": 2}
    assert data["symbols"]["method"] == 5 and data["files_with_syntax_errors"] == ["broken.go"]
    assert main(["code", "index", str(fixtures / "python"), "--json", "--symbols"]) == 0
    syms = json.loads(capsys.readouterr().out)["symbol_list"]
    assert {"name": "step_candidate", "kind": "function", "file": "kv/node.py", "line": 24, "end_line": 28,
            "signature": "def step_candidate(node, term)", "qualname": "step_candidate"} in syms
    assert main(["code", "index", str(fixtures / "go"), "--tests"]) == 0
    assert "3 files" in capsys.readouterr().out


def test_map_show_search(fixtures, capsys):
    assert main(["code", "map", str(fixtures / "java"), "--focus", "lookForLeader", "--budget", "200"]) == 0
    out = capsys.readouterr().out
    assert "lookForLeader() { … }" in out
    assert main(["code", "map", str(fixtures / "java"), "--focus", "lookForLeader", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"][0]["name"] == "lookForLeader"
    assert main(["code", "show", str(fixtures / "rust"), "Raft.reset"]) == 0
    assert "   28│    fn reset(&mut self, term: u64) {" in capsys.readouterr().out
    assert main(["code", "search", str(fixtures / "c"), r"current_term\+\+"]) == 0
    assert "src/server.c:17: [server_become_candidate]" in capsys.readouterr().out
    assert main(["code", "search", str(fixtures / "c"), "nothing_like_this"]) == 1
    assert capsys.readouterr().out == "no match for 'nothing_like_this'\n"
    assert main(["code", "search", str(fixtures / "c"), "server_", "--symbol", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["symbols"]) >= 3


def test_graph_and_state_commands(fixtures, capsys):
    root = str(fixtures / "python")
    assert main(["code", "callers", root, "become_candidate"]) == 0
    assert "kv/node.py:27 step_candidate -> node.become_candidate" in capsys.readouterr().out
    assert main(["code", "callees", root, "Node.become_candidate"]) == 0
    assert "-> self.reset  [kv/node.py:19]" in capsys.readouterr().out
    assert main(["code", "fields", root, "Node", "--json"]) == 0
    fields = json.loads(capsys.readouterr().out)["fields"]
    assert [f["field"]["name"] for f in fields] == ["kind", "node_id", "term", "votes"]
    assert main(["code", "writes", root, "Node.votes"]) == 0
    assert "kv/node.py:21 Node.reset: self.votes.clear(…)" in capsys.readouterr().out
    assert main(["code", "symbols", root, "broken.py"]) == 0
    assert "fine_after" in capsys.readouterr().out


def test_errors_exit_2(fixtures, tmp_path, capsys):
    assert main(["code", "show", str(fixtures / "go"), "NoSuchThing"]) == 2
    err = capsys.readouterr().err
    assert "no definition named 'NoSuchThing'" in err and "[E800]" in err
    assert main(["code", "index", str(tmp_path / "missing")]) == 2
    assert "repository not found" in capsys.readouterr().err
    assert main(["code", "map", str(fixtures / "go"), "--budget", "0"]) == 2


def test_effects_command(fixtures, capsys):
    assert main(["code", "effects", str(fixtures / "rust"), "Raft.become_candidate", "--json"]) == 0
    writes = json.loads(capsys.readouterr().out)["writes"]
    assert [(w["function"], w["target"]) for w in writes] == [
        ("Raft.become_candidate", "term"), ("Raft.become_candidate", "votes"), ("Raft.reset", "term"),
        ("Raft.reset", "votes")]


def test_include_option(tmp_path, capsys):
    (tmp_path / "deps" / "raft").mkdir(parents=True)
    (tmp_path / "deps" / "raft" / "server.c").write_text("int raft_become_leader(void) { return 1; }\n")
    (tmp_path / "main.c").write_text("int main(void) { return 0; }\n")
    assert main(["code", "show", str(tmp_path), "raft_become_leader"]) == 2
    capsys.readouterr()
    assert main(["code", "show", str(tmp_path), "raft_become_leader", "--include", "deps/raft/server.c"]) == 0
    assert "deps/raft/server.c:1-1 function raft_become_leader" in capsys.readouterr().out
