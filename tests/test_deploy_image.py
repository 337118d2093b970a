"""The container image's commands (deploy/Dockerfile), run here as the image runs them: its build
step (the warm-up), its start (``CMD``) and its health check (``HEALTHCHECK``). No container
engine is needed: a name the image uses that moves or goes fails here, not at a deployment.

The caches stay this machine's (the image keeps its own in ``TAVLI_CACHE``): a fresh one would
only compile the kernels again, which the warm-up's own line already times."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "deploy" / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continued lines joined), as (keyword, the rest)."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def in_venv(argv: list[str]) -> list[str]:
    """``argv`` with ``tavli`` and ``python`` as this environment has them."""
    programs = {"tavli": str(Path(sys.executable).with_name("tavli")), "python": sys.executable}
    return [programs.get(argv[0], argv[0]), *argv[1:]]


def test_the_image_runs_only_commands_of_the_package() -> None:
    found = instructions()
    runs = [rest for keyword, rest in found if keyword == "RUN"]
    assert "tavli warm-up" in runs, "the image builds its caches with the warm-up command"
    for rest in runs:  # nothing reaches into a module's names: those move (issue: WARM_UP_STAGES)
        assert "from tavli" not in rest and "import tavli" not in rest, rest
    command = json.loads(next(rest for keyword, rest in found if keyword == "CMD"))
    assert command[:2] == ["tavli", "serve"]


@pytest.mark.slow
def test_the_images_warm_up_start_and_health_check_work(tmp_path: Path) -> None:
    found = instructions()
    for keyword, rest in found:  # the build step, as the image's build runs it
        if keyword == "RUN" and rest.startswith("tavli "):
            done = subprocess.run(in_venv(shlex.split(rest)), capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stderr
            assert "Getting ready" in done.stderr
    command = json.loads(next(rest for keyword, rest in found if keyword == "CMD"))
    given = dict(zip(command[2::2], command[3::2], strict=False))
    assert given.get("--port") and given.get("--database", "").startswith("sqlite:")
    # the image's start, on a free port and a database of the test's
    command[command.index("--port") + 1] = "0"
    command[command.index("--database") + 1] = f"sqlite:///{tmp_path / 'tavli.db'}"
    server = subprocess.Popen(in_venv(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=tmp_path)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = re.search(r":(\d+)/", line)
        assert port, line + (server.stderr.read() if server.stderr else "")
        check = next(rest for keyword, rest in found if keyword == "HEALTHCHECK")
        probe = shlex.split(check.split(" CMD ", 1)[1].replace(given["--port"], port.group(1)))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        for _ in range(30):  # as the engine does: again every few seconds while the server starts
            healthy = subprocess.run(in_venv(probe), capture_output=True, text=True, timeout=60, env=env)
            if healthy.returncode == 0 or server.poll() is not None:
                break
            time.sleep(2)
        assert healthy.returncode == 0, healthy.stderr
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow
def test_a_container_engine_builds_the_image_where_there_is_one() -> None:
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "info"], capture_output=True, timeout=30).returncode != 0:
        pytest.skip("no container engine runs here: the commands above are the image's, run without it")
    built = subprocess.run([docker, "build", "-f", str(DOCKERFILE), "-t", "tavli-test", str(ROOT)],
                           capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stderr[-2000:]
