"""Service layout: which folders are deployable services, libraries, infrastructure or unknown code."""

#: Bump when a layout rule changes which folders are services, what they are named or which files
#: they own: the facts move with it, so the analysis version (``StaticCodeAnalyzer.version``, what
#: the history benchmark's caches and a fitted ranking record) must move too.
VERSION = "4"
