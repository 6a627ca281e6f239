"""Celery beat schedules publish their periodic tasks: Django settings, ``app.conf`` attributes,
``conf.update(...)`` keywords and ``add_periodic_task`` with a task signature."""

from pyana_support import link_sources, messages

TASKS = '''
from celery import Celery

app = Celery("greenhouse")

@app.task
def water_plants():
    pass

@app.task(name="greenhouse.vent")
def open_vents():
    pass
'''


def _published(facts):
    return sorted((f, line, ch) for f, line, d, _p, ch, _h in messages(facts) if d == "publishes")


def test_django_settings_schedule():
    settings = '''
CELERY_BROKER_URL = "redis://cache:6379/0"
CELERY_BEAT_SCHEDULE = {
    "water-hourly": {"task": "greenhouse.tasks.water_plants", "schedule": 3600},
    "vent-often": {"task": "greenhouse.vent", "schedule": 60.0, "args": ()},
}
'''
    facts = link_sources({"greenhouse/settings.py": settings, "greenhouse/tasks.py": TASKS})
    assert _published(facts) == [
        ("greenhouse/settings.py", 3, "greenhouse.tasks.water_plants"),
        ("greenhouse/settings.py", 3, "greenhouse.vent"),
    ]


def test_app_conf_attribute_and_update_keyword():
    conf = '''
from greenhouse.tasks import app
from celery.schedules import crontab

app.conf.beat_schedule = {"night": {"task": "greenhouse.vent", "schedule": crontab(hour=2)}}
app.conf.update(CELERYBEAT_SCHEDULE={"noon": {"task": "greenhouse.tasks.water_plants", "schedule": 5}})
'''
    facts = link_sources({"greenhouse/beat.py": conf, "greenhouse/tasks.py": TASKS})
    assert _published(facts) == [
        ("greenhouse/beat.py", 5, "greenhouse.vent"),
        ("greenhouse/beat.py", 6, "greenhouse.tasks.water_plants"),
    ]


def test_add_periodic_task_with_a_signature():
    periodic = TASKS + '''

@app.on_after_configure.connect
def setup(sender, **kwargs):
    sender.add_periodic_task(30.0, water_plants.s(), name="water")
    sender.add_periodic_task(90.0, open_vents.si(1))
'''
    facts = link_sources({"greenhouse/tasks.py": periodic})
    assert _published(facts) == [
        ("greenhouse/tasks.py", 17, "greenhouse.tasks.water_plants"),
        ("greenhouse/tasks.py", 18, "greenhouse.vent"),
    ]


def test_negative_other_dicts_and_unknown_signatures():
    settings = '''
SCHEDULE = {"water": {"task": "greenhouse.tasks.water_plants"}}
CELERY_BEAT_SCHEDULE = {"odd": "not-a-dict", "empty": {}}
'''
    periodic = '''
def setup(sender, job):
    sender.add_periodic_task(30.0, job)
'''
    facts = link_sources({"greenhouse/settings.py": settings, "greenhouse/periodic.py": periodic})
    assert _published(facts) == []
