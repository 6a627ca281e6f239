"""NHibernate: classes a session reads or writes, in the table a class map names (Fluent or
mapping by code) or under their own name, on the engine the dialect, driver or Fluent database
configuration names; session-like calls on other receivers, or without NHibernate, are nothing."""

from __future__ import annotations

from .helpers import link

SETUP = """
using NHibernate;
using NHibernate.Cfg;
using NHibernate.Dialect;

public static class Persistence
{
    public static ISessionFactory Build(string cn)
    {
        var cfg = new Configuration();
        cfg.DataBaseIntegration(db => { db.Dialect<PostgreSQL83Dialect>(); db.ConnectionString = cn; });
        return cfg.BuildSessionFactory();
    }
}

public class Loans
{
    private readonly ISession session;

    public Task<Loan> Find(Guid id) => session.GetAsync<Loan>(id);
    public void Add(Borrower b) => session.Save(b);
    public IQueryable<Fee> Fees() => session.Query<Fee>();
    public void Note(ISessionFactory factory)
    {
        using var batch = factory.OpenStatelessSession();
        batch.Insert(new Reminder("due"));
    }
}
"""

FLUENT = """
using NHibernate;
using FluentNHibernate.Cfg;
using FluentNHibernate.Mapping;

public class LoanMap : ClassMap<Loan>
{
    public LoanMap() { Table("loans"); Id(x => x.Id); }
}

public static class Wiring
{
    public static ISessionFactory Make(string cn) =>
        Fluently.Configure().Database(MsSqlConfiguration.MsSql2012.ConnectionString(cn)).BuildSessionFactory();
}

public class Desk
{
    private readonly ISession _s;
    public Loan One(int id) => _s.Get<Loan>(id);
}
"""


def _entities(files: dict[str, str]) -> list[tuple[str, str | None, str | None]]:
    return sorted((e.name, e.class_name, e.engine_hint) for e in link(files).entities)


def test_session_classes_on_the_configured_dialect() -> None:
    assert _entities({"svc/Loans.cs": SETUP}) == [
        ("Borrower", "Borrower", "postgres"),
        ("Fee", "Fee", "postgres"),
        ("Loan", "Loan", "postgres"),
        ("Reminder", "Reminder", "postgres"),  # a stateless session named as such
    ]


def test_a_class_map_names_the_table_and_fluent_names_the_engine() -> None:
    assert _entities({"svc/Desk.cs": FLUENT}) == [("loans", "Loan", "sqlserver")]


def test_session_verbs_elsewhere_or_without_nhibernate_are_nothing() -> None:
    other = "public class Cart { public void Add(Basket basket, Item i) => basket.Save(i); }"
    assert _entities({"svc/Cart.cs": other}) == []
    plain = SETUP.replace("using NHibernate;", "using Loans.Local;").replace("using NHibernate.Cfg;", "")
    plain = plain.replace("using NHibernate.Dialect;", "")
    assert _entities({"svc/Loans.cs": plain}) == []
