"""A compose service built from a solution folder whose Dockerfile copies the program's project and
the libraries it references (``COPY ["Api/Api.csproj", "Api/"]``, ``COPY ["Core/Core.csproj", …]``)
runs the program: the one copied project with an entry point, named by the compose service."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

WEB = '<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup><ProjectReference Include="..\\{lib}\\{lib}.csproj" /></ItemGroup></Project>'
WORKER = '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>'
LIB = '<Project Sdk="Microsoft.NET.Sdk"></Project>'
PROGRAM = 'var app = WebApplication.CreateBuilder(args).Build();\napp.MapGet("/health", () => "ok");\napp.Run();\n'
COPY_JSON = """FROM mcr.microsoft.com/dotnet/sdk:8.0 AS build
WORKDIR /src
COPY ["Till.Web/Till.Web.csproj", "Till.Web/"]
COPY ["Till.Data/Till.Data.csproj", "Till.Data/"]
RUN dotnet restore "Till.Web/Till.Web.csproj"
COPY . .
RUN dotnet publish "Till.Web/Till.Web.csproj" -o /out
FROM mcr.microsoft.com/dotnet/aspnet:8.0
COPY --from=build /out .
ENTRYPOINT ["dotnet", "Till.Web.dll"]
"""
COPY_PLAIN = """FROM mcr.microsoft.com/dotnet/sdk:8.0
WORKDIR /src
COPY Shelf.Rules/Shelf.Rules.csproj Shelf.Rules/
COPY Shelf.Host/Shelf.Host.csproj Shelf.Host/
COPY . .
RUN dotnet publish Shelf.Host/Shelf.Host.csproj -o /out
ENTRYPOINT ["dotnet", "/out/Shelf.Host.dll"]
"""
COMPOSE = """
services:
  till:
    build:
      context: ./Till
      dockerfile: Dockerfile
  shelf-worker:
    build: ./Shelf
"""


def _services(files: dict[str, str]) -> list[tuple[str, str]]:
    result = StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("acme"), DictAnalysisCache())
    return sorted((s.service.name, s.service.root_dir) for s in result.services)


def _files() -> dict[str, str]:
    return {
        "docker-compose.yml": COMPOSE,
        "Till/Dockerfile": COPY_JSON, "Till/Till.sln": "",
        "Till/Till.Web/Till.Web.csproj": WEB.replace("{lib}", "Till.Data"), "Till/Till.Web/Program.cs": PROGRAM,
        "Till/Till.Data/Till.Data.csproj": LIB, "Till/Till.Data/Receipt.cs": "namespace Till.Data; public class Receipt { }",
        "Shelf/Dockerfile": COPY_PLAIN,
        "Shelf/Shelf.Host/Shelf.Host.csproj": WORKER, "Shelf/Shelf.Host/Program.cs": "Console.WriteLine(\"shelf\");\n",
        "Shelf/Shelf.Rules/Shelf.Rules.csproj": LIB, "Shelf/Shelf.Rules/Rule.cs": "namespace Shelf.Rules; public class Rule { }",
    }  # fmt: skip


def test_the_copied_program_is_the_compose_service() -> None:
    assert _services(_files()) == [("shelf-worker", "Shelf/Shelf.Host"), ("till", "Till/Till.Web")]


def test_two_copied_programs_are_not_guessed() -> None:
    files = _files()
    files["Till/Till.Data/Till.Data.csproj"] = WORKER  # now both copied projects run
    files["Till/Till.Data/Program.cs"] = "Console.WriteLine(\"data\");\n"
    assert ("till", "Till/Till.Web") not in _services(files)
