"""One error hierarchy for the whole product; names state facts. Adapters map them to exit codes
(CLI) or to short MCP errors with a hint."""

from __future__ import annotations


class OrbitkbError(Exception):
    """Root of every error orbitkb raises on purpose."""

    hint: str | None = None

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        if hint is not None:
            self.hint = hint


class InvalidInput(OrbitkbError):
    """An argument is malformed: wrong type, out of range, too long, unsafe."""


class PathNotFound(InvalidInput):
    pass


class NotFound(OrbitkbError):
    """A named thing is not in the knowledge model."""

    def __init__(self, message: str, suggestions: tuple[str, ...] = (), hint: str | None = None) -> None:
        if suggestions and hint is None:
            hint = "closest known names: " + ", ".join(suggestions)
        super().__init__(message, hint)
        self.suggestions = suggestions


class ServiceNotFound(NotFound):
    pass


class ApiNotFound(NotFound):
    pass


class RepositoryNotFound(NotFound):
    pass


class RunNotFound(NotFound):
    pass


class EmptyKnowledgeBase(OrbitkbError):
    hint = "index a repository first: orbitkb index PATH"


class SchemaTooNew(OrbitkbError):
    """The database was written by a newer orbitkb than this one."""


class StoreError(OrbitkbError):
    pass


class StoreReadOnly(StoreError):
    """The store refuses writes for this process: a read-only file or ``mode=ro`` open, a role with
    SELECT only. Readers keep answering; what they would record (runs, feedback) is skipped."""


class RepositoryConflict(OrbitkbError):
    """Indexing would silently replace another folder's knowledge under the same repository name."""


class GitError(OrbitkbError):
    pass


class LlmError(OrbitkbError):
    """The LLM backend failed: missing CLI, not logged in, timeout, invalid output."""


class LlmUnavailable(LlmError):
    pass


class LlmCancelled(LlmError):
    """The run was interrupted: the backend stopped this call and takes no more."""


class NotAvailableYet(OrbitkbError):
    pass
