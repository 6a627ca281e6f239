"""File classification tables: what to prune, what is code of which stack, what is configuration.

Data, not code: adding a vendored folder, a generated-file pattern or a language is adding a row.
"""

from __future__ import annotations

import fnmatch
import re

from orbitkb.domain.stacks import code_stacks

#: Folder names never walked: vendored dependencies, build output, tool caches, VCS metadata.
PRUNED_DIRS = frozenset(
    {
        "node_modules",
        "bower_components",
        "jspm_packages",
        "target",
        "build",
        "dist",
        "out",
        "vendor",
        "Godeps",  # godep's vendored GOPATH (Godeps/_workspace/src): third-party code
        ".venv",
        "venv",
        "virtualenv",
        "__pycache__",
        ".git",
        ".hg",
        ".svn",
        ".idea",
        ".vscode",
        ".gradle",
        ".mvn",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".next",
        ".nuxt",
        ".svelte-kit",
        ".angular",
        ".terraform",
        ".serverless",
        "coverage",
        ".nyc_output",
        "site-packages",
        ".eggs",
        "obj",
        ".cache",
        ".parcel-cache",
        ".turbo",
        ".yarn",
        ".pnpm-store",
        "Pods",
        "DerivedData",
    }
)

#: Folder-name patterns also pruned (egg-info, generated sources of common code generators).
PRUNED_DIR_GLOBS = ("*.egg-info", "generated", "generated-sources", "gen-src")

#: Generated files skipped as files (protobuf/gRPC stubs, minified bundles, lock files' kin).
GENERATED_FILE_GLOBS = (
    "*_pb2.py",
    "*_pb2_grpc.py",
    "*_pb2.pyi",
    "*_pb2_grpc.pyi",
    "*.pb.go",
    "*_grpc.pb.go",
    "*.pb.gw.go",
    "*.pb.micro.go",
    "*.pb.validate.go",
    "*_pb.js",
    "*_pb.d.ts",
    "*_grpc_pb.js",
    "*_grpc_pb.d.ts",
    "*.pb.ts",
    "*.min.js",
    "*.bundle.js",
    "*.chunk.js",
    "*Grpc.java",
    "*OuterClass.java",
    "*.generated.ts",
    "*.generated.go",
    "*_generated.go",
    "zz_generated*.go",
    "*.designer.cs",
    "*.Designer.cs",  # what Visual Studio and EF Core write (the globs are case-sensitive)
    "*.g.cs",  # the rest of the C# compiler's own generated-file names
    "*.g.i.cs",
    "*.generated.cs",
)

#: Suffix -> stack of code files, whether or not that stack's analyzer could be loaded (the
#: domain's table of stacks, ``orbitkb.domain.stacks``, is the one place a stack is declared).
CODE_STACKS = code_stacks()

#: Code of stacks nobody analyses: suffix -> human name (reported as unknown_stack gaps).
OTHER_CODE = {
    ".scala": "Scala", ".ex": "Elixir",
    ".exs": "Elixir", ".erl": "Erlang", ".swift": "Swift", ".c": "C", ".cc": "C++", ".cpp": "C++",
    ".cxx": "C++", ".h": "C/C++", ".hpp": "C++", ".clj": "Clojure", ".hs": "Haskell", ".lua": "Lua",
    ".dart": "Dart", ".fs": "F#", ".vb": "Visual Basic", ".pl": "Perl", ".cr": "Crystal",
    ".zig": "Zig", ".nim": "Nim", ".ml": "OCaml", ".jl": "Julia",
}  # fmt: skip

#: Assets never worth a too_large gap (they are not read as text anyway).
BINARY_ASSETS = frozenset(
    {
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".ico",
        ".webp",
        ".bmp",
        ".svg",
        ".pdf",
        ".zip",
        ".gz",
        ".tgz",
        ".tar",
        ".jar",
        ".war",
        ".ear",
        ".class",
        ".so",
        ".dll",
        ".exe",
        ".dylib",
        ".woff",
        ".woff2",
        ".ttf",
        ".otf",
        ".eot",
        ".mp3",
        ".mp4",
        ".mov",
        ".webm",
        ".wasm",
        ".bin",
        ".db",
        ".sqlite",
        ".pyc",
        ".parquet",
        ".avro",
        ".onnx",
        ".pt",
        ".h5",
        ".pkl",
        ".npy",
        ".psd",
    }
)

#: Names of files whose text the pipeline reads (manifests, deployment and application config).
TEXT_NAMES = frozenset(
    {
        "package.json",
        "nest-cli.json",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "settings.gradle",
        "settings.gradle.kts",
        "go.mod",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "Pipfile",
        "Cargo.toml",
        "composer.json",
        "Gemfile",
        "mix.exs",
        "CMakeLists.txt",
        "pubspec.yaml",
        "Dockerfile",
        "nginx.conf",
        "skaffold.yaml",
        "skaffold.yml",
        "Chart.yaml",
        "README",
        "Makefile",  # `docker build -t image -f Dockerfile context` (layout.dockerbuild)
        "makefile",
        "GNUmakefile",
        "Procfile",  # processes and the code each runs (layout.procfile)
    }
)
TEXT_SUFFIXES = frozenset(
    {".yml", ".yaml", ".properties", ".proto", ".csproj", ".conf", ".template", ".md", ".rst", ".txt", ".env",
     ".ctmpl", ".tmpl",  # consul-template / Go templates of proxy configs
     ".graphql", ".graphqls", ".gql",  # a federation router's supergraph names its subgraphs' URLs
     ".sh"}  # scripts: `docker build` commands name the folder an image is built from
)  # fmt: skip

#: Words in the name of a JSON/TOML file that is an API document or a gateway's route config.
DOCUMENT_WORDS = ("openapi", "swagger", "asyncapi", "api-docs", "envoy", "kong", "traefik", "ocelot")

_GEN_RE = re.compile("|".join(fnmatch.translate(g) for g in GENERATED_FILE_GLOBS))
_DIR_GLOB_RE = re.compile("|".join(fnmatch.translate(g) for g in PRUNED_DIR_GLOBS))


def suffix_of(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def is_pruned_dir(name: str) -> bool:
    return name in PRUNED_DIRS or (name.startswith(".") and name != ".") or bool(_DIR_GLOB_RE.match(name))


def is_generated(name: str) -> bool:
    return bool(_GEN_RE.match(name))


def wants_text(name: str) -> bool:
    """True for manifests and configuration: their text is kept for the layout and config stages."""
    if name in TEXT_NAMES or name.startswith(("Dockerfile", ".env", "requirements", "README", "readme")):
        return True
    if suffix_of(name) in (".json", ".toml") and any(w in name.lower() for w in DOCUMENT_WORDS):
        return True  # API documents and gateway configs written as JSON (or Traefik's TOML)
    if (name.startswith("appsettings") and name.endswith(".json")) or name == "launchSettings.json":  # .NET
        return True
    return suffix_of(name) in TEXT_SUFFIXES or name.endswith((".dockerfile", ".csproj"))


# --------------------------------------------------------------------------- tests

#: Folder names holding tests: their files are listed and hashed but not parsed (no facts).
TEST_DIRS = frozenset(
    {"test", "tests", "__tests__", "__mocks__", "testdata", "e2e", "spec", "specs", "it",
     "integration_tests", "integration-tests", "e2e_tests", "e2e-tests"}
)  # fmt: skip
TEST_FILE_GLOBS = (
    "test_*.py",
    "*_test.py",
    "tests.py",
    "conftest.py",
    "*_test.go",
    "*.test.js",
    "*.test.jsx",
    "*.test.ts",
    "*.test.tsx",
    "*.spec.js",
    "*.spec.jsx",
    "*.spec.ts",
    "*.spec.tsx",
    "*.test.mjs",
    "*Test.java",
    "*Tests.java",
    "*IT.java",
    "*Test.kt",
    "*Tests.kt",
    "*Spec.groovy",
    "*Test.groovy",
    "*_spec.rb",
    "*_test.rb",
    "*Test.php",
)
_TEST_RE = re.compile("|".join(fnmatch.translate(g) for g in TEST_FILE_GLOBS))


#: a build's test source set named in camelCase or kebab-case (Gradle ``src/integrationTest/``,
#: ``src/contractTest/``, ``src/component-test/``): its code and its configuration are never deployed
_TEST_SOURCE_SET = re.compile(r"(?:^|/)src/(?:[a-z][A-Za-z0-9]*(?:Tests?|IT)|[a-z0-9]+(?:-[a-z0-9]+)*-tests?)/")


def is_test_path(path: str) -> bool:
    parts = path.split("/")
    return (
        bool(_TEST_RE.match(parts[-1]))
        or any(p in TEST_DIRS for p in parts[:-1])
        or _TEST_SOURCE_SET.search(path) is not None
    )
