"""The on-disk cache (content-hash keyed, versioned folder, env override) and git URL repos."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from specula.code import TagCache, index_repo
from specula.code.cache import code_cache_dir
from specula.errors import CodeError


def test_cache_dir_follows_env(_private_cache):
    assert code_cache_dir() == _private_cache / "code" / "v1"


def test_reindex_is_incremental(tmp_path, fixtures):
    repo = tmp_path / "repo"
    shutil.copytree(fixtures / "python", repo)
    cache = TagCache(tmp_path / "cache")
    first = index_repo(repo, cache=cache)
    assert first.stats.parsed == 2 and first.stats.cached == 0
    second = index_repo(repo, cache=cache)
    assert second.stats.parsed == 0 and second.stats.cached == 2
    assert [s.render() for s in second.symbols] == [s.render() for s in first.symbols]
    assert [c.to_dict() for c in second.calls] == [c.to_dict() for c in first.calls]
    # change one file: only it is parsed again; a copy of a file elsewhere hits the cache (key = content)
    node = repo / "kv" / "node.py"
    node.write_text(node.read_text() + "\n\ndef added():\n    return step_candidate(None, 1)\n")
    shutil.copy(repo / "kv" / "broken.py", repo / "kv" / "copy.py")
    third = index_repo(repo, cache=cache)
    assert third.stats.parsed == 1 and third.stats.cached == 2
    n_lines = len((repo / "kv" / "node.py").read_text().splitlines())
    assert any(s.name == "added" and s.line == n_lines - 1 for s in third.symbols)
    assert {s.file for s in third.symbols if s.name == "fine_after"} == {"kv/broken.py", "kv/copy.py"}
    assert (tmp_path / "cache" / "tags.sqlite").is_file()


def test_default_cache_is_used(fixtures, _private_cache):
    index_repo(fixtures / "rust")
    assert (_private_cache / "code" / "v1" / "tags.sqlite").is_file()
    assert index_repo(fixtures / "rust").stats.cached == 1


def _git(*args: str, cwd: Path) -> None:
    import subprocess

    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(cwd), "PATH": "/usr/bin:/bin:/usr/local/bin"})


@pytest.fixture
def bare_repo(tmp_path, fixtures) -> tuple[Path, str]:
    work = tmp_path / "work"
    shutil.copytree(fixtures / "go", work)
    _git("init", "-q", "-b", "main", cwd=work)
    _git("add", "-A", cwd=work)
    _git("commit", "-q", "-m", "one", cwd=work)
    import git

    first = git.Repo(work).head.commit.hexsha
    (work / "extra.go").write_text("package node\n\nfunc extraFunc() {}\n")
    _git("add", "-A", cwd=work)
    _git("commit", "-q", "-m", "two", cwd=work)
    bare = tmp_path / "remote.git"
    _git("clone", "-q", "--bare", str(work), str(bare), cwd=tmp_path)
    return bare, first


def test_git_url_is_cloned_into_cache(bare_repo, _private_cache):
    bare, first = bare_repo
    ix = index_repo(f"file://{bare}")
    assert "extraFunc" in ix.by_name and "becomeCandidate" in ix.by_name
    assert _private_cache in ix.root.parents
    old = index_repo(str(bare), commit=first)  # a bare repository path counts as a URL too
    assert "extraFunc" not in old.by_name and "becomeCandidate" in old.by_name


def test_bad_repo_and_bad_commit(tmp_path, bare_repo):
    with pytest.raises(CodeError, match="repository not found"):
        index_repo(tmp_path / "missing")
    with pytest.raises(CodeError):
        index_repo(f"file://{bare_repo[0]}", commit="deadbeef" * 5)
    with pytest.raises(CodeError, match="git failed"):
        index_repo(f"file://{tmp_path}/nothing.git")


def test_parallel_extraction_matches_inline(tmp_path, fixtures, monkeypatch):
    import specula.code.index as index_mod

    repo = tmp_path / "many"
    for i in range(6):
        shutil.copytree(fixtures / "go", repo / f"copy{i}", ignore=shutil.ignore_patterns("vendor"))
    monkeypatch.setattr(index_mod, "PARALLEL_MIN_FILES", 4)
    par = index_repo(repo, use_cache=False, workers=2)
    assert par.stats.workers == 2
    inline = index_repo(repo, use_cache=False, workers=1)
    assert inline.stats.workers == 1
    assert [s.render() for s in par.symbols] == [s.render() for s in inline.symbols]
    assert len(par.files) == 12


def test_one_bad_file_does_not_stop_indexing(tmp_path, fixtures, monkeypatch):
    import specula.code.index as index_mod

    repo = tmp_path / "r"
    shutil.copytree(fixtures / "python", repo)
    real = index_mod.extract_file

    def flaky(src, lang, path, sha):
        if path.endswith("broken.py"):
            raise RuntimeError("grammar bug")
        return real(src, lang, path, sha)

    monkeypatch.setattr(index_mod, "extract_file", flaky)
    ix = index_repo(repo, use_cache=False)
    assert list(ix.files) == ["kv/node.py"] and ix.stats.skipped["extract-error"] == 1


def test_commit_of_a_local_checkout_does_not_move_it(tmp_path, bare_repo, _private_cache):
    import git

    bare, first = bare_repo
    work = tmp_path / "mine"
    git.Repo.clone_from(str(bare), work)
    head = git.Repo(work).head.commit.hexsha
    old = index_repo(work, commit=first)
    assert "extraFunc" not in old.by_name and _private_cache in old.root.parents
    assert git.Repo(work).head.commit.hexsha == head and (work / "extra.go").exists()
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(CodeError, match="not a git repository"):
        index_repo(plain, commit=first)


def test_stale_versions_are_pruned(tmp_path, fixtures):
    cache = TagCache(tmp_path / "c")
    cache.put_many({"abc:go:oldversion": {"x": 1}, "abc:rust:keep": {"x": 2}})
    index_repo(fixtures / "go", cache=cache)
    assert cache.get_many(["abc:go:oldversion"]) == {}
    assert cache.get_many(["abc:rust:keep"]) == {"abc:rust:keep": {"x": 2}}
