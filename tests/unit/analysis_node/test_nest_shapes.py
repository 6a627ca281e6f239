"""NestJS request/response shapes from @Body() DTO classes and handler return types."""

from __future__ import annotations

from .support import analyze

DTO = """
import { IsOptional, IsString, IsInt } from 'class-validator';
import { ApiProperty, ApiPropertyOptional, PartialType, OmitType } from '@nestjs/swagger';

export class BaseDto {
  id!: string;
  createdAt?: Date;
}

export class CreateOrderDto extends BaseDto {
  @IsInt()
  qty!: number;

  @IsOptional()
  @IsString()
  note: string;

  @ApiPropertyOptional() coupon: string;
  @ApiProperty({ required: false }) channel: 'web' | 'app';
  readonly items: Array<{ sku: string }> = [];
  static VERSION = 2;
}

export class UpdateOrderDto extends PartialType(CreateOrderDto) {}

export class PublicOrderDto extends OmitType(CreateOrderDto, ['note', 'coupon'] as const) {
  total: number;
}
"""

CONTROLLER = """
import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { CreateOrderDto, UpdateOrderDto, PublicOrderDto as Out } from './dto/order.dto';

@Controller('orders')
export class OrdersController {
  @Post()
  async create(@Body() dto: CreateOrderDto): Promise<PublicOrderDto> {
    return null;
  }

  @Patch(':id')
  update(@Param('id') id: string, @Body() body: UpdateOrderDto) {
    return body;
  }

  @Get()
  list(): Observable<PublicOrderDto[]> {
    return null;
  }

  @Post(':id/note')
  note(@Param('id') id: string, @Body('note') note?: string): void {}
}
"""

CREATE = (
    ("id", "string", True),
    ("createdAt", "Date", False),
    ("qty", "number", True),
    ("note", "string", False),
    ("coupon", "string", False),
    ("channel", "'web' | 'app'", False),
    ("items", "Array<{ sku: string }>", True),
)
PUBLIC = (
    ("id", "string", True),
    ("createdAt", "Date", False),
    ("qty", "number", True),
    ("channel", "'web' | 'app'", False),
    ("items", "Array<{ sku: string }>", True),
    ("total", "number", True),
)


def _shapes() -> dict[tuple[str, str], tuple]:
    facts = analyze({"src/orders/dto/order.dto.ts": DTO, "src/orders/orders.controller.ts": CONTROLLER})
    return {(a.method, a.path): (a.request_fields, a.response_fields) for a in facts.apis}


def test_body_dto_with_inherited_fields_and_optional_decorators() -> None:
    assert _shapes()[("POST", "/orders")] == (CREATE, PUBLIC)


def test_partial_type_makes_every_field_optional() -> None:
    assert _shapes()[("PATCH", "/orders/:id")] == (tuple((n, t, False) for n, t, _ in CREATE), ())


def test_list_response_fields_are_list_items() -> None:
    assert _shapes()[("GET", "/orders")] == ((), tuple((n, t + " (list item)", r) for n, t, r in PUBLIC))


def test_body_with_a_key_is_one_field() -> None:
    assert _shapes()[("POST", "/orders/:id/note")] == ((("note", "string", False),), ())
