"""Service-discovery lookups by name: an instance found with ``getInstances("x")``, ``choose("x")``
or Eureka's ``getNextServerFromEureka("x", ...)`` addresses the service ``x``."""

from __future__ import annotations

import json

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.resolve import render


def link(files: dict[str, str]) -> LinkedFacts:
    parsed = {p: json.loads(json.dumps(ANALYZER.parse(p, text))) for p, text in files.items()}
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parsed)


def urls(facts: LinkedFacts) -> list[str]:
    return sorted(render(c.url) for c in facts.calls)


JAVA = """package org.mill.grain;

import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.DiscoveryClient;
import org.springframework.cloud.client.loadbalancer.LoadBalancerClient;
import org.springframework.web.client.RestTemplate;
import com.netflix.discovery.EurekaClient;

public class SiloCalls {
  private final DiscoveryClient discovery;
  private final LoadBalancerClient balancer;
  private final EurekaClient eureka;
  private final RestTemplate rest = new RestTemplate();

  public SiloCalls(DiscoveryClient d, LoadBalancerClient b, EurekaClient e) { discovery = d; balancer = b; eureka = e; }

  public String level() {
    ServiceInstance silo = discovery.getInstances("silo-service").get(0);
    return rest.getForObject(silo.getUri() + "/levels", String.class);
  }

  public String weight() {
    return rest.getForObject(balancer.choose("scale-service").getUri() + "/weights", String.class);
  }

  public String price() {
    String home = eureka.getNextServerFromEureka("market", false).getHomePageUrl();
    return rest.getForObject(home + "prices", String.class);
  }

  public String any(String name) {
    return rest.getForObject(discovery.getInstances(name).get(0).getUri() + "/x", String.class);
  }
}
"""

KOTLIN = """package org.mill.flour

import org.springframework.cloud.client.discovery.DiscoveryClient
import org.springframework.web.client.RestTemplate

class BakeryCalls(private val discovery: DiscoveryClient, private val rest: RestTemplate) {
    fun ovens(): String? {
        val oven = discovery.getInstances("oven-service").first()
        return rest.getForObject("${oven.uri}/ovens", String::class.java)
    }
}
"""


def test_java_instances_looked_up_by_name():
    found = urls(link({"src/main/java/SiloCalls.java": JAVA}))
    assert "http://silo-service/levels" in found
    assert "http://scale-service/weights" in found
    assert "http://market/prices" in found


def test_a_lookup_by_a_variable_name_stays_unknown():
    found = urls(link({"src/main/java/SiloCalls.java": JAVA}))
    assert not any(u.endswith("/x") and u.startswith("http://") for u in found)


def test_kotlin_instance_property():
    assert "http://oven-service/ovens" in urls(link({"src/main/kotlin/BakeryCalls.kt": KOTLIN}))
