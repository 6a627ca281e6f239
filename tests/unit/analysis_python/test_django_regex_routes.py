"""Django regex routes (``re_path``, legacy ``url``): anchors dropped, named and unnamed groups as
parameters, alternatives and catch-alls expanded into path templates, prefixes of ``include``."""

import pytest
from pyana_support import apis, link_sources

from orbitkb.analysis.python.regexroute import templates


@pytest.mark.parametrize(
    ("regex", "expected"),
    [
        (r"^shelves/(?P<shelf_id>[0-9]+)$", ["shelves/<shelf_id>"]),
        (r"^shelves/(?P<shelf_id>\d+)/books/?$", ["shelves/<shelf_id>/books"]),
        (r"^loans/(\d+)/(\w+)/$", ["loans/<arg1>/<arg2>/"]),
        (r"^page/\d+/$", ["page/<param>/"]),
        (r"^files/(?P<rest>.*)$", ["files/<rest>"]),
        (r"^(?:lobby|atrium).*$", ["lobby/**", "atrium/**"]),
        (r"^v(?:1|2)/ping$", ["v1/ping", "v2/ping"]),
        (r"^a/(?:b/)?c$", ["a/b/c", "a/c"]),
        (r"^(?P<year>[0-9]{4})/(?P<slug>[\w-]+)/$", ["<year>/<slug>/"]),
        (r"^report\.csv$", ["report.csv"]),
        (r"^$", [""]),
        (r"^staff/", ["staff/"]),
    ],
)
def test_regex_as_templates(regex, expected):
    assert templates(regex) == expected


def test_negative_plain_text_is_unchanged():
    assert templates("shelves/all") == ["shelves/all"]


ROOT_RE_PATH = '''
from django.urls import include, re_path
from library import views

urlpatterns = [
    re_path(r"^$", views.lobby),
    re_path(r"^(?:shelves|loans).*$", views.lobby),
    re_path(r"^api/shelves/(?P<shelf_id>[0-9]+)$", views.shelf, name="shelf"),
    re_path(r"^api/", include("library.api_urls")),
]
'''

API_URLS = '''
from django.urls import re_path
from library import views

urlpatterns = [
    re_path(r"^loans/(?P<loan_id>[0-9]+)/return$", views.give_back),
]
'''

VIEWS = '''
def lobby(request):
    pass

def shelf(request, shelf_id):
    pass

def give_back(request, loan_id):
    pass
'''


def test_re_path_routes_compose_with_include():
    facts = link_sources(
        {
            "library/urls.py": ROOT_RE_PATH,
            "library/api_urls.py": API_URLS,
            "library/views.py": VIEWS,
            "library/settings.py": 'ROOT_URLCONF = "library.urls"\n',
        }
    )
    assert sorted((m, p) for m, p, *_ in apis(facts)) == [
        ("ANY", "/"),
        ("ANY", "/api/loans/<loan_id>/return"),
        ("ANY", "/api/shelves/<shelf_id>"),
        ("ANY", "/loans/**"),
        ("ANY", "/shelves/**"),
    ]


LEGACY_URLS = '''
from django.conf.urls import include, url
from library import views

urlpatterns = [
    url(r'^api/shelves/(\\d+)/?$', views.shelf),
    url(r'^api/', include('library.api_urls')),
]
'''


def test_legacy_url_with_unnamed_group():
    facts = link_sources(
        {"library/urls.py": LEGACY_URLS, "library/api_urls.py": API_URLS, "library/views.py": VIEWS}
    )
    assert sorted((m, p) for m, p, *_ in apis(facts)) == [
        ("ANY", "/api/loans/<loan_id>/return"),
        ("ANY", "/api/shelves/<arg1>"),
    ]


def test_path_routes_are_not_read_as_regex():
    facts = link_sources(
        {
            "library/urls.py": 'from django.urls import path\nfrom library import views\n'
            'urlpatterns = [path("shelves/<int:shelf_id>/", views.shelf), path("a.b/", views.lobby)]\n',
            "library/views.py": VIEWS,
        }
    )
    assert sorted((m, p) for m, p, *_ in apis(facts)) == [
        ("ANY", "/a.b"),
        ("ANY", "/shelves/<int:shelf_id>"),
    ]
