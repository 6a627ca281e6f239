import { Controller, Get } from '@nestjs/common';

@Controller()
export class HealthController {
  /** Liveness probe. */
  @Get('health')
  check() {
    return { status: 'ok' };
  }
}
