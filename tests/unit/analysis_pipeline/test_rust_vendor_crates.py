"""Cloud SDK crates a Rust service's code imports name their vendors (Azure Cosmos DB, Blob Storage,
Service Bus, Key Vault; AWS Secrets Manager, Bedrock, Cognito); a crate of the same family that is
no vendor call (``azure_core``) names none."""

from __future__ import annotations

from orbitkb.analysis.vendors.code import scan


def _vendors(source: str) -> list[str]:
    return sorted(v for v, _, _ in scan("store/src/main.rs", source))


def test_azure_and_aws_crates_imported_by_rust_code_name_their_vendors() -> None:
    source = "use azure_data_cosmos::prelude::*;\nuse azure_storage_blobs::prelude::*;\nuse aws_sdk_secretsmanager::Client;\n"
    assert _vendors(source) == ["AWS Secrets Manager", "Azure Blob Storage", "Azure Cosmos DB"]


def test_a_core_crate_of_the_family_names_no_vendor() -> None:
    assert _vendors("use azure_core::Context;\nuse azure_identity::DefaultAzureCredential;\n") == []
