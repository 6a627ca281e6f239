"""gRPC servicers as RPC APIs: generated ``<X>Servicer`` bases reached directly, through an alias,
through local base classes in other modules, or by registration alone (duck typing)."""

from pyana_support import apis, calls, link_sources

DIRECT = '''import grpc
import demo_pb2
import demo_pb2_grpc


class CurrencyService(demo_pb2_grpc.CurrencyServiceServicer):
    def GetSupportedCurrencies(self, request, context):
        """Every ISO code the service converts."""
        return demo_pb2.GetSupportedCurrenciesResponse()

    def Convert(self, request, context):
        return self._convert(request)

    def _convert(self, request):
        return request

    def close(self):
        pass


def serve():
    server = grpc.server(None)
    demo_pb2_grpc.add_CurrencyServiceServicer_to_server(CurrencyService(), server)
    server.start()
'''


def test_servicer_methods_are_rpc_apis_helpers_are_not():
    facts = link_sources({"svc/server.py": DIRECT})
    assert apis(facts) == [
        ("RPC", "CurrencyService/Convert", "CurrencyService.Convert", "svc/server.py", 11),
        (
            "RPC",
            "CurrencyService/GetSupportedCurrencies",
            "CurrencyService.GetSupportedCurrencies",
            "svc/server.py",
            7,
        ),
    ]
    by_path = {a.path: a for a in facts.apis}
    assert by_path["CurrencyService/GetSupportedCurrencies"].doc == "Every ISO code the service converts."
    assert {a.kind for a in facts.apis} == {"grpc"} and {a.component for a in facts.apis} == {
        "CurrencyService"
    }
    assert facts.grpc_implements == ("CurrencyService",)


BASES = """from grpc_health.v1 import health_pb2
from shop.gen.demo_pb2_grpc import EmailServiceServicer as Base


class BaseEmailService(Base):
    def Check(self, request, context):
        return health_pb2.HealthCheckResponse()

    def Watch(self, request, context):
        return health_pb2.HealthCheckResponse()

    def SendOrderConfirmation(self, request, context):
        raise NotImplementedError
"""

IMPLS = '''from email_service.base import BaseEmailService


class EmailService(BaseEmailService):
    def SendOrderConfirmation(self, request, context):
        """Sends the mail for real."""
        return None


class DummyEmailService(BaseEmailService):
    def SendOrderConfirmation(self, request, context):
        return None
'''

SERVER = """import grpc
from grpc_health.v1 import health_pb2_grpc
from shop.gen import demo_pb2_grpc
from email_service.impls import DummyEmailService, EmailService


def start(dummy_mode):
    server = grpc.server(None)
    service = None
    if dummy_mode:
        service = DummyEmailService()
    demo_pb2_grpc.add_EmailServiceServicer_to_server(service, server)
    health_pb2_grpc.add_HealthServicer_to_server(service, server)
    server.start()
"""


def test_registered_class_through_local_bases_in_other_modules():
    facts = link_sources(
        {
            "email/email_service/base.py": BASES,
            "email/email_service/impls.py": IMPLS,
            "email/email_service/server.py": SERVER,
        },
        root="email",
    )
    # only the registered class serves EmailService; Check/Watch belong to Health
    assert apis(facts) == [
        ("RPC", "EmailService/SendOrderConfirmation", "DummyEmailService.SendOrderConfirmation",
         "email/email_service/impls.py", 11),
        ("RPC", "Health/Check", "BaseEmailService.Check", "email/email_service/base.py", 6),
        ("RPC", "Health/Watch", "BaseEmailService.Watch", "email/email_service/base.py", 9),
    ]  # fmt: skip


def test_unregistered_subclasses_are_the_most_derived_ones():
    facts = link_sources(
        {"email/email_service/base.py": BASES, "email/email_service/impls.py": IMPLS}, "email"
    )
    assert apis(facts) == [
        ("RPC", "EmailService/Check", "BaseEmailService.Check", "email/email_service/base.py", 6),
        ("RPC", "EmailService/SendOrderConfirmation", "DummyEmailService.SendOrderConfirmation",
         "email/email_service/impls.py", 11),
        ("RPC", "EmailService/SendOrderConfirmation", "EmailService.SendOrderConfirmation",
         "email/email_service/impls.py", 5),
        ("RPC", "EmailService/Watch", "BaseEmailService.Watch", "email/email_service/base.py", 9),
    ]  # fmt: skip


DUCK = '''import asyncio
import grpc
from grpc import aio
import orders_pb2_grpc as rpc
from .clients import payments


class Orders:
    """Serves orders without inheriting the generated base."""

    async def PlaceOrder(self, request, context):
        return await payments().Charge(request)

    async def GetOrder(self, request, context):
        return None


async def main():
    server = aio.server()
    handler = Orders()
    rpc.add_OrderServiceServicer_to_server(handler, server)
    await server.start()


if __name__ == "__main__":
    asyncio.run(main())
'''

CLIENTS = """import os
import grpc
import payments_pb2_grpc

PAYMENTS = os.getenv("PAYMENTS_ADDR", "payments:50051")


def payments():
    return payments_pb2_grpc.PaymentServiceStub(grpc.aio.insecure_channel(PAYMENTS))
"""


def test_duck_typed_async_servicer_registered_through_a_variable():
    facts = link_sources({"orders/app/server.py": DUCK, "orders/app/clients.py": CLIENTS}, "orders")
    assert apis(facts) == [
        ("RPC", "OrderService/GetOrder", "Orders.GetOrder", "orders/app/server.py", 14),
        ("RPC", "OrderService/PlaceOrder", "Orders.PlaceOrder", "orders/app/server.py", 11),
    ]
    # calls inside a servicer method belong to its rpc API, one hop into a local helper included
    assert [c for c in calls(facts) if c[2] == "grpc"] == [
        ("orders/app/clients.py", 9, "grpc", "grpc-stub", None, "${PAYMENTS_ADDR:payments:50051}",
         "Orders.PlaceOrder", "PaymentService"),
        ("orders/app/server.py", 12, "grpc", "grpc-stub", "Charge", "${PAYMENTS_ADDR:payments:50051}",
         "Orders.PlaceOrder", "PaymentService"),
    ]  # fmt: skip


def test_generated_servicer_module_itself_is_no_api():
    generated = """class EmailServiceServicer(object):
    def SendOrderConfirmation(self, request, context):
        raise NotImplementedError()


def add_EmailServiceServicer_to_server(servicer, server):
    pass
"""
    facts = link_sources({"svc/demo_pb2_grpc.py": generated, "svc/main.py": "x = 1\n"})
    assert apis(facts) == []
