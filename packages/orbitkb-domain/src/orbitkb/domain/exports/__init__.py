"""Renderers of a KnowledgeSnapshot into files: {relative path: text}. Pure functions, no I/O."""

from orbitkb.domain.exports.backstage import render_backstage
from orbitkb.domain.exports.markdown import render_markdown
from orbitkb.domain.exports.mermaid import render_mermaid

RENDERERS = {"md": render_markdown, "mermaid": render_mermaid, "backstage": render_backstage}

__all__ = ["RENDERERS", "render_backstage", "render_markdown", "render_mermaid"]
