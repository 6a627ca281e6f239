"""SDK rows for PHP, Ruby and .NET services beyond the common ones: notifier and mailer bridges
(Symfony Mailer/Notifier, Laravel notification channels), OAuth provider clients, the storage
driver a Laravel S3 disk needs, Telegram/Discord bots, commerce and CRM clients, Microsoft identity
and Graph; each from the package a manifest declares and from the namespace the code imports."""

from __future__ import annotations

import textwrap

import pytest

from orbitkb.analysis.layout.manifests import read_manifest
from orbitkb.analysis.vendors.code import scan
from orbitkb.analysis.vendors.manifests import declared_sdks

COMPOSER = """{
  "require": {
    "php": "^8.2",
    "laravel/framework": "^11.0",
    "league/flysystem-aws-s3-v3": "^3.0",
    "symfony/mailgun-mailer": "^7.0",
    "irazasyed/telegram-bot-sdk": "^3.9",
    "kreait/laravel-firebase": "^5.0"
  },
  "require-dev": {"symfony/slack-notifier": "^7.0", "phpunit/phpunit": "^11"}
}"""
GEMFILE = """source "https://rubygems.org"
gem "rails", "~> 7.1"
gem "koala"
gem "gibbon", "~> 3.5"
gem "discordrb"
group :test do
  gem "shopify_api"
end
"""
CSPROJ = """<Project Sdk="Microsoft.NET.Sdk.Web">
  <ItemGroup>
    <PackageReference Include="Microsoft.Identity.Web" Version="3.1.0" />
    <PackageReference Include="Microsoft.Graph" Version="5.56.0" />
    <PackageReference Include="Telegram.Bot" Version="19.0.0" />
    <PackageReference Include="Serilog.AspNetCore" Version="8.0.0" />
  </ItemGroup>
</Project>"""


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("billing/composer.json", COMPOSER, [
            ("AWS S3", "league/flysystem-aws-s3-v3"), ("Firebase Cloud Messaging", "kreait/laravel-firebase"),
            ("Mailgun", "symfony/mailgun-mailer"), ("Telegram Bot API", "irazasyed/telegram-bot-sdk")]),
        ("storefront/Gemfile", GEMFILE, [("Discord", "discordrb"), ("Facebook", "koala"), ("Mailchimp", "gibbon")]),
        ("Desk/Desk.csproj", CSPROJ, [
            ("Microsoft Entra ID", "Microsoft.Identity.Web"), ("Microsoft Graph", "Microsoft.Graph"),
            ("Telegram Bot API", "Telegram.Bot")]),
    ],
)  # fmt: skip
def test_declared_packages_name_their_vendor_and_dev_groups_do_not(path: str, text: str,
                                                                   expected: list[tuple[str, str]]) -> None:  # fmt: skip
    manifest, _ = read_manifest(path, text)
    assert [(s.vendor, s.package) for s in declared_sdks([manifest], {path: text})] == expected


@pytest.mark.parametrize(
    ("path", "source", "vendor"),
    [
        ("app/Notify.php", "<?php\nuse Telegram\\Bot\\Api;\n", "Telegram Bot API"),
        ("app/Sms.php", "<?php\nuse Vonage\\Client;\nuse Vonage\\SMS\\Message\\SMS;\n", "Vonage"),
        ("app/Login.php", "<?php\nuse League\\OAuth2\\Client\\Provider\\Google;\n", "Google OAuth"),
        ("app/Shop.php", "<?php\nuse Shopify\\Clients\\Rest;\n", "Shopify"),
        ("app/services/fb.rb", "class Fb\n  def graph = Koala::Facebook::API.new(token)\nend\n", "Facebook"),
        ("app/services/news.rb", "class News\n  def list = Gibbon::Request.new(api_key: k).lists\nend\n", "Mailchimp"),
        ("Auth/Startup.cs", "using Microsoft.Identity.Web;\n", "Microsoft Entra ID"),
        ("Mail/Inbox.cs", "using Microsoft.Graph;\nusing Microsoft.Graph.Models;\n", "Microsoft Graph"),
        ("Bots/Alerts.cs", "using Telegram.Bot;\nusing Telegram.Bot.Types;\n", "Telegram Bot API"),
        ("Repo/Sync.cs", "using Octokit;\n", "GitHub API"),
    ],
)  # fmt: skip
def test_imports_name_their_vendor(path: str, source: str, vendor: str) -> None:
    assert [v for v, _, _ in scan(path, textwrap.dedent(source))] == [vendor]
