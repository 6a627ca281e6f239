"""A deployment command that names a module (``celery -A``, ``uvicorn x:app``, ``python -m``)
fixes the import root, and so Celery's generated task names; a publish through an app imported
from code the service does not hold is still a Celery publish."""

from pyana_support import messages

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.python import ANALYZER
from orbitkb.analysis.python.importroot import ImportRoot, find, named_modules

TASKS = "from celery import Celery\napp = Celery('kiln')\n@app.task\ndef fire(batch):\n    pass\n"


def _consumed(files, root, commands):
    parsed = {p: ANALYZER.parse(p, t) for p, t in files.items()}
    facts = ANALYZER.link(ServiceContext("kiln", root, "python", "inline", (), commands), parsed)
    return sorted(ch for _f, _l, d, _p, ch, _h in messages(facts) if d == "consumes")


def test_named_modules_in_commands():
    assert named_modules(["celery", "-A", "pottery.kiln.tasks", "worker", "-Q", "q"]) == ["pottery.kiln.tasks"]
    assert named_modules(["celery", "--app=kiln.app:app", "worker"]) == ["kiln.app"]
    assert named_modules(["uvicorn", "kiln.main:app", "--host", "0.0.0.0:80"]) == ["kiln.main"]
    assert named_modules(["hypercorn", "src/kiln/main:app"]) == ["src.kiln.main"]
    assert named_modules(["python", "-m", "kiln"]) == ["kiln"]
    assert named_modules(["redis-server", "--port", "6379", "http://x:1"]) == []


def test_import_root_from_the_module_a_command_names():
    files = ["studio/kiln/tasks.py", "studio/kiln/__init__.py"]
    # the image adds a package folder above the repository's
    assert find([["celery", "-A", "app.studio.kiln.tasks", "worker"]], files) == ImportRoot(".", "app")
    # the build copies a folder below the repository root
    assert find([["celery", "-A", "kiln.tasks", "worker"]], files) == ImportRoot("studio", "")
    assert find([["celery", "-A", "elsewhere.jobs", "worker"]], files) is None


def test_task_names_follow_the_import_root():
    files = {"pottery/kiln/tasks.py": TASKS}
    mounted = _consumed(files, "pottery/kiln", (("celery", "-A", "srv.pottery.kiln.tasks", "worker"),))
    copied = _consumed(files, "pottery/kiln", (("celery", "-A", "kiln.tasks", "worker"),))
    assert mounted == ["srv.pottery.kiln.tasks.fire"]
    assert copied == ["kiln.tasks.fire"]
    # negative: no command, the service root is the import root
    assert _consumed(files, "pottery/kiln", ()) == ["tasks.fire"]


def test_send_task_on_an_app_imported_from_another_service():
    files = {
        "web/main.py": (
            "from worker.celery_app import celery_app\n"
            "def glaze(item):\n"
            "    celery_app.send_task('kiln.fire', args=[item])\n"
        )
    }
    parsed = {p: ANALYZER.parse(p, t) for p, t in files.items()}
    facts = ANALYZER.link(ServiceContext("web", "web", "python", "inline"), parsed)
    assert [(d, p, ch) for _f, _l, d, p, ch, _h in messages(facts)] == [("publishes", "celery", "kiln.fire")]


def test_negative_an_unknown_send_on_an_import_is_not_a_publish():
    files = {"web/main.py": "from mailer.client import smtp\ndef go():\n    smtp.send('x')\n"}
    parsed = {p: ANALYZER.parse(p, t) for p, t in files.items()}
    facts = ANALYZER.link(ServiceContext("web", "web", "python", "inline"), parsed)
    assert messages(facts) == []
