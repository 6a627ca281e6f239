"""Spring request/response shapes: @RequestBody records/classes and unwrapped return types."""

from __future__ import annotations

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.jvm import ANALYZER

FILES = {
    "src/main/java/shop/dto/CreateOrder.java": """
package shop.dto;

import jakarta.validation.constraints.*;
import java.util.List;

public record CreateOrder(@NotBlank String sku, @NotNull @Min(1) Integer qty, String note, List<String> tags) {
    public static final int MAX = 10;
}
""",
    "src/main/java/shop/dto/Audited.java": """
package shop.dto;

public abstract class Audited {
    @NotNull
    protected String createdBy;
    private java.time.Instant createdAt;
}
""",
    "src/main/java/shop/dto/OrderView.java": """
package shop.dto;

public class OrderView extends Audited implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private Long id;
    @NotEmpty private String status;
    private java.math.BigDecimal total;
}
""",
    "src/main/java/shop/web/OrderController.java": """
package shop.web;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.*;
import shop.dto.*;
import java.util.List;

@RestController
@RequestMapping("/orders")
public class OrderController {
    @PostMapping
    public ResponseEntity<OrderView> create(@Valid @RequestBody CreateOrder body) {
        return null;
    }

    @GetMapping
    public List<OrderView> all() { return null; }

    @GetMapping("/{id}")
    public Mono<ResponseEntity<OrderView>> one(@PathVariable Long id) { return null; }

    @DeleteMapping("/{id}")
    public ResponseEntity<Void> delete(@PathVariable Long id) { return null; }
}
""",
    "src/main/kotlin/shop/web/Refunds.kt": """
package shop.web

import org.springframework.web.bind.annotation.*

data class RefundRequest(@field:NotNull val orderId: Long, val reason: String?)

@RestController
class RefundController {
    @PostMapping("/refunds")
    fun refund(@RequestBody req: RefundRequest): String = "ok"
}
""",
}

CREATE = (
    ("sku", "String", True),
    ("qty", "Integer", True),
    ("note", "String", None),
    ("tags", "List<String>", None),
)
VIEW = (
    ("createdBy", "String", True),
    ("createdAt", "java.time.Instant", None),
    ("id", "Long", None),
    ("status", "String", True),
    ("total", "java.math.BigDecimal", None),
)


def _shapes() -> dict[tuple[str, str], tuple]:
    parsed = {rel: ANALYZER.parse(rel, text) for rel, text in FILES.items()}
    facts = ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)
    return {(a.method, a.path): (a.request_fields, a.response_fields) for a in facts.apis}


def test_request_record_and_response_entity_class_with_inherited_fields() -> None:
    shapes = _shapes()
    assert shapes[("POST", "/orders")] == (CREATE, VIEW)
    assert shapes[("GET", "/orders")] == ((), tuple((n, t + " (list item)", r) for n, t, r in VIEW))
    assert shapes[("GET", "/orders/{id}")] == ((), VIEW)
    assert shapes[("DELETE", "/orders/{id}")] == ((), ())


def test_kotlin_data_class_body() -> None:
    assert _shapes()[("POST", "/refunds")] == ((("orderId", "Long", True), ("reason", "String?", None)), ())
