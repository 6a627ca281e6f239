"""Runtime settings, read from the environment by pydantic-settings (DATABASE_URL, ...)."""

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = "postgresql+asyncpg://shop:shop@localhost:5432/catalog"
    redis_url: str = "redis://localhost:6379/0"
    kafka_bootstrap: str = "localhost:9092"
    inventory_grpc_addr: str = "localhost:9090"
    log_level: str = "INFO"


settings = Settings()
