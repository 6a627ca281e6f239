"""Vendor SDKs imported by the service's own code become one external call per vendor."""

from __future__ import annotations

from .support import analyze


def _sdk_calls(files: dict[str, str]) -> list[tuple[str, str, int, str | None]]:
    facts = analyze(files)
    return sorted(
        (c.client, c.file, c.line, c.target_hint) for c in facts.calls if c.client.startswith("sdk:")
    )


def test_es_module_imports_of_payment_and_login_sdks() -> None:
    files = {
        "src/billing/charge.service.ts": """\
            import { Injectable } from '@nestjs/common';
            import { InjectStripe } from 'nestjs-stripe';
            import * as Stripe from 'stripe';

            @Injectable()
            export class ChargeService {
              constructor(@InjectStripe() private readonly stripe: Stripe) {}
            }
            """,
        "src/auth/octo.strategy.ts": """\
            import { PassportStrategy } from '@nestjs/passport';
            import { Strategy } from 'passport-github2';

            export class OctoStrategy extends PassportStrategy(Strategy, 'octo') {}
            """,
    }
    assert _sdk_calls(files) == [
        ("sdk:nestjs-stripe", "src/billing/charge.service.ts", 2, "Stripe API"),
        ("sdk:passport-github2", "src/auth/octo.strategy.ts", 2, "GitHub API"),
    ]


def test_commonjs_require_and_a_subpath_of_a_scoped_package() -> None:
    files = {
        "lib/mailer.js": """\
            const mail = require('@sendgrid/mail');
            const { MailService } = require('@sendgrid/mail/src/mail');
            module.exports = (to) => mail.send({ to });
            """,
    }
    assert _sdk_calls(files) == [("sdk:@sendgrid/mail", "lib/mailer.js", 1, "SendGrid")]


def test_type_only_relative_and_unknown_imports_are_not_vendors() -> None:
    files = {
        "src/types.ts": """\
            import type { Customer } from 'stripe';
            import { stripe } from './stripe';
            import express from 'express';
            export type C = Customer;
            """,
    }
    assert _sdk_calls(files) == []


def test_nodemailer_well_known_services_are_their_mail_vendors() -> None:
    files = {
        "src/config.js": """\
            module.exports = {
              smtp: { service: 'Gmail', user: process.env.MAIL_USER },
              queue: { service: 'orders' },
            };
            """,
        "src/mailer.js": """\
            const nodemailer = require('nodemailer');
            const { smtp } = require('./config');
            module.exports = () => nodemailer.createTransport(smtp);
            """,
        "src/relay.ts": """\
            import * as nodemailer from 'nodemailer';
            export const relay = nodemailer.createTransport({ service: "SendGrid", auth: {} });
            """,
    }
    assert _sdk_calls(files) == [
        ("sdk:nodemailer", "src/config.js", 2, "Gmail"),
        ("sdk:nodemailer", "src/relay.ts", 2, "SendGrid"),
    ]


def test_a_mail_service_name_without_nodemailer_is_no_vendor() -> None:
    files = {"src/config.js": "module.exports = { mail: { service: 'gmail' } };\n"}
    assert _sdk_calls(files) == []


def test_azure_web_pubsub_sdks_name_the_realtime_vendor() -> None:
    socket_io = {
        "server.js": """\
            import { Server } from 'socket.io';
            import { useAzureSocketIO } from '@azure/web-pubsub-socket.io';
            const io = new Server(4300);
            useAzureSocketIO(io, { hub: 'harbor', connectionString: process.env.PUBSUB_CONNECTION });
            """
    }
    service_client = {
        "src/notify.ts": """\
            const { WebPubSubServiceClient } = require('@azure/web-pubsub');
            module.exports = new WebPubSubServiceClient(process.env.PUBSUB_CONNECTION, 'harbor');
            """
    }
    assert _sdk_calls(socket_io) == [("sdk:@azure/web-pubsub-socket.io", "server.js", 2, "Azure Web PubSub")]
    assert _sdk_calls(service_client) == [("sdk:@azure/web-pubsub", "src/notify.ts", 1, "Azure Web PubSub")]


def test_a_destructured_require_of_an_sdk_is_an_import_and_of_a_local_module_is_not() -> None:
    files = {
        "lib/upload.js": """\
            const path = require('path');
            const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');
            const { bucket } = require('./settings');
            module.exports = (key) => new S3Client({}).send(new PutObjectCommand({ Bucket: bucket, Key: key }));
            """,
    }
    assert _sdk_calls(files) == [("sdk:@aws-sdk/client-s3", "lib/upload.js", 2, "AWS S3")]
