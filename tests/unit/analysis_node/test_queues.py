"""Bull / BullMQ job queues (directly and through NestJS) and the framework of message-only apps."""

from __future__ import annotations

from .support import analyze, url

NEST_BULL = {
    "src/main.ts": """\
        import { NestFactory } from '@nestjs/core';
        import { AppModule } from './app.module';

        NestFactory.create(AppModule).then((app) => app.listen(3000));
        """,
    "src/queues.constants.ts": """\
        export const EMAIL_QUEUE = 'email-sender';
        """,
    "src/app.module.ts": """\
        import { Module } from '@nestjs/common';
        import { BullModule } from '@nestjs/bull';
        import { EMAIL_QUEUE } from './queues.constants';

        @Module({
          imports: [BullModule.forRoot({ redis: { host: 'redis' } }), BullModule.registerQueue({ name: EMAIL_QUEUE })],
        })
        export class AppModule {}
        """,
    "src/users/users.controller.ts": """\
        import { Body, Controller, Post } from '@nestjs/common';
        import { UsersService } from './users.service';

        @Controller('users')
        export class UsersController {
          constructor(private readonly users: UsersService) {}

          @Post()
          register(@Body() dto: any) {
            return this.users.register(dto);
          }
        }
        """,
    "src/users/users.service.ts": """\
        import { Injectable } from '@nestjs/common';
        import { InjectQueue } from '@nestjs/bull';
        import { Queue } from 'bull';
        import { EMAIL_QUEUE } from '../queues.constants';

        @Injectable()
        export class UsersService {
          constructor(@InjectQueue(EMAIL_QUEUE) private readonly emailQueue: Queue) {}

          async register(dto: any) {
            await this.emailQueue.add('welcome', { to: dto.email }, { attempts: 3 });
            return dto;
          }
        }
        """,
    "src/mail/email.processor.ts": """\
        import { OnQueueCompleted, Process, Processor } from '@nestjs/bull';
        import { Job } from 'bull';
        import { EMAIL_QUEUE } from '../queues.constants';

        @Processor(EMAIL_QUEUE)
        export class EmailProcessor {
          /** Sends the welcome mail. */
          @Process('welcome')
          async sendWelcome(job: Job) {}

          @Process()
          async fallback(job: Job) {}

          @OnQueueCompleted()
          done(job: Job) {}
        }
        """,
}


def test_nest_bull_inject_queue_publishes_and_process_methods_consume() -> None:
    facts = analyze(NEST_BULL)
    apis = [(a.kind, a.method, a.path, a.handler, a.line if hasattr(a, "line") else a.start_line, a.provider, a.doc)
            for a in facts.apis if a.kind == "message"]  # fmt: skip
    assert apis == [
        (
            "message",
            "CONSUME",
            "email-sender",
            "EmailProcessor.sendWelcome",
            8,
            "redis",
            "Sends the welcome mail.",
        ),
        ("message", "CONSUME", "email-sender", "EmailProcessor.fallback", 11, "redis", None),
    ]
    got = sorted(
        (m.direction, url(m.channel), m.provider, m.file, m.line, m.api_handler) for m in facts.messages
    )
    assert got == [
        ("consumes", "email-sender", "redis", "src/mail/email.processor.ts", 8, "EmailProcessor.sendWelcome"),
        ("consumes", "email-sender", "redis", "src/mail/email.processor.ts", 11, "EmailProcessor.fallback"),
        ("publishes", "email-sender", "redis", "src/users/users.service.ts", 11, "UsersController.register"),
    ]
    assert facts.framework == "nestjs"


NEST_BULLMQ = {
    "src/reports/reports.service.ts": """\
        import { InjectQueue } from '@nestjs/bullmq';
        import { Injectable } from '@nestjs/common';
        import { Queue } from 'bullmq';

        @Injectable()
        export class ReportsService {
          @InjectQueue('reports')
          private reportsQueue: Queue;

          @InjectQueue() private readonly defaultQueue: Queue;

          schedule(ids: string[]) {
            return this.reportsQueue.addBulk(ids.map((id) => ({ name: 'render', data: { id } })));
          }

          ping() {
            this.defaultQueue.add('ping', {});
          }
        }
        """,
    "src/reports/reports.consumer.ts": """\
        import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
        import { Job } from 'bullmq';

        @Processor({ name: 'reports' }, { concurrency: 4 })
        export class ReportsConsumer extends WorkerHost {
          async process(job: Job): Promise<void> {
            await this.render(job.data.id);
          }

          @OnWorkerEvent('completed')
          onCompleted() {}

          private async render(id: string) {}
        }
        """,
    "src/main.ts": """\
        import { NestFactory } from '@nestjs/core';
        import { WorkerModule } from './worker.module';

        async function bootstrap() {
          await NestFactory.createApplicationContext(WorkerModule);
        }
        bootstrap();
        """,
}


def test_nest_bullmq_worker_host_and_field_injection() -> None:
    facts = analyze(NEST_BULLMQ)
    assert [(a.method, a.path, a.handler, a.start_line, a.component) for a in facts.apis] == [
        ("CONSUME", "reports", "ReportsConsumer.process", 6, "ReportsConsumer"),
    ]
    got = sorted((m.direction, url(m.channel), m.line, m.component) for m in facts.messages)
    assert got == [
        ("consumes", "reports", 6, "ReportsConsumer"),
        ("publishes", "default", 17, "ReportsService"),
        ("publishes", "reports", 13, "ReportsService"),
    ]
    assert facts.framework == "nestjs"  # no HTTP route: the message API names the framework


PLAIN_BULLMQ = {
    "src/queues.ts": """\
        import { Queue } from 'bullmq';
        import { connection } from './redis';

        export const THUMBNAILS = process.env.THUMBNAIL_QUEUE ?? 'thumbnails';
        export const thumbnailQueue = new Queue(THUMBNAILS, { connection });
        """,
    "src/redis.ts": """\
        export const connection = { host: process.env.REDIS_HOST };
        """,
    "src/upload.ts": """\
        import { thumbnailQueue } from './queues';

        export async function onUpload(key: string) {
          await thumbnailQueue.add('resize', { key });
        }
        """,
    "src/worker.ts": """\
        import { Worker } from 'bullmq';
        import { Worker as Thread } from 'worker_threads';
        import { THUMBNAILS } from './queues';

        async function resize(job) {}

        new Worker(THUMBNAILS, resize, { connection: {} });
        const audit = new Worker('audit-log', async (job) => {
          console.log(job.id);
        });
        new Thread('./cpu.js');
        const seen = new Set<string>();
        seen.add('x');
        """,
}


def test_plain_bullmq_queues_across_modules_and_workers() -> None:
    facts = analyze(PLAIN_BULLMQ)
    assert [(a.path, a.handler, a.start_line, a.component, a.framework) for a in facts.apis] == [
        ("thumbnails", "resize", 7, "worker", None),
        ("audit-log", "<anonymous>@8", 8, "worker", None),
    ]
    got = sorted(
        (m.direction, url(m.channel), m.provider, m.file, m.line, m.api_handler) for m in facts.messages
    )
    assert got == [
        ("consumes", "audit-log", "redis", "src/worker.ts", 8, "<anonymous>@8"),
        ("consumes", "thumbnails", "redis", "src/worker.ts", 7, "resize"),
        ("publishes", "${THUMBNAIL_QUEUE:thumbnails}", "redis", "src/upload.ts", 4, None),
    ]
    assert facts.framework is None


BULL_CLASSIC = {
    "jobs.js": """\
        const Queue = require('bull');
        const { transcode } = require('./transcode');

        const audioQueue = new Queue('audio transcoding', process.env.REDIS_URL);
        const mailQueue = Queue('mails');

        audioQueue.process(async (job) => transcode(job.data));
        mailQueue.process('digest', 5, sendDigest);

        function sendDigest(job) {}

        module.exports.enqueue = (file) => audioQueue.add({ file });
        """,
}


def test_bull_classic_process_and_add_on_required_queues() -> None:
    facts = analyze(BULL_CLASSIC)
    assert [(a.path, a.handler, a.start_line, a.component) for a in facts.apis] == [
        ("audio transcoding", "<anonymous>@7", 7, "jobs"),
        ("mails", "sendDigest", 8, "jobs"),
    ]
    got = sorted((m.direction, url(m.channel), m.line, m.client) for m in facts.messages)
    assert got == [
        ("consumes", "audio transcoding", 7, "bull"),
        ("consumes", "mails", 8, "bull"),
        ("publishes", "audio transcoding", 12, "bull"),
    ]


MESSAGE_ONLY = {
    "apps/users/src/main.ts": """\
        import { NestFactory } from '@nestjs/core';
        import { MicroserviceOptions, Transport } from '@nestjs/microservices';
        import { UsersModule } from './users.module';

        async function bootstrap() {
          const app = await NestFactory.createMicroservice<MicroserviceOptions>(UsersModule, {
            transport: Transport.RMQ,
            options: { urls: [process.env.RMQ_URL], queue: 'users_queue' },
          });
          await app.listen();
        }
        bootstrap();
        """,
    "apps/users/src/users.controller.ts": """\
        import { Controller } from '@nestjs/common';
        import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';

        @Controller()
        export class UsersController {
          @MessagePattern({ cmd: 'get-user' })
          getUser(@Payload() id: string) {}

          @EventPattern('user_created')
          onCreated(@Payload() data: unknown) {}
        }
        """,
}


def test_message_only_nest_apps_are_nestjs() -> None:
    facts = analyze(MESSAGE_ONLY, root="apps/users")
    assert facts.framework == "nestjs"
    assert sorted((a.path, a.provider) for a in facts.apis) == [
        ("user_created", "rabbitmq"),
        ('{"cmd":"get-user"}', "rabbitmq"),
    ]


def test_a_bare_nest_bootstrap_without_handlers_is_still_nestjs() -> None:
    facts = analyze({"src/main.ts": MESSAGE_ONLY["apps/users/src/main.ts"]})
    assert facts.apis == () and facts.framework == "nestjs"
