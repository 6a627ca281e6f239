"""orbitkb-git: source adapters — a working tree on disk and a commit read from git objects."""

from orbitkb.git.folders import OsFolderLocator
from orbitkb.git.reader import SubprocessGitReader
from orbitkb.git.working_tree import WorkingTreeSource

__all__ = ["OsFolderLocator", "SubprocessGitReader", "WorkingTreeSource"]
