"""A partition chosen by hand is refused while SNO_LEASE_URL is set: the process is one of a fleet
whose partitions are leased, and the partition may be one another process holds by lease (the
same IDs twice). One rule for every layer (sno_lease::check_explicit_partition), here through
sno.Generator; against a real PostgreSQL holding the partition by lease."""

import uuid

import pytest

import sno


def test_a_partition_chosen_by_hand_is_refused_beside_a_lease_url(pg, monkeypatch):
    ns = f"py-explicit-{uuid.uuid4().hex[:12]}"
    # Another process of the fleet holds partition 5 by lease.
    with sno.Lease(pg.url, namespace=ns, partitions=(5, 5), ttl=60.0) as held:
        assert held.partition == 5
        monkeypatch.setenv("SNO_LEASE_URL", pg.url)
        monkeypatch.setenv("SNO_LEASE_NAMESPACE", ns)
        default = sno.Generator()  # a default partition is no choice: allowed
        snapshot = default.snapshot()
        for by_hand in (
            lambda: sno.Generator(partition=5),
            lambda: sno.Generator(snapshot=snapshot),
            lambda: sno.Generator(5, snapshot=snapshot),
            lambda: default.repartition(5),
        ):
            with pytest.raises(sno.ConfigError) as err:
                by_hand()
            assert err.value.code == "invalid_environment" and err.value.variable == "SNO_LEASE_URL"
            assert "leave the partition out to mint on a leased one" in str(err.value)
        # A Nanoflake generator id and a Ulid-Flake sid are no sno partitions: nothing leases them.
        assert sno.nanoflake.Generator(epoch_ms=1704067200000, generator_id=5).new().generator_id == 5
        assert sno.ulidflake.Generator(sid=5).new().sid == 5
        # A lease's generator takes its partition from the lease.
        with sno.Lease(pg.url, namespace=ns, partitions=(6, 6), ttl=60.0) as mine:
            assert sno.Generator(lease=mine).new().partition == 6
    monkeypatch.delenv("SNO_LEASE_URL")
    assert sno.Generator(partition=5).partition == 5
    default.repartition(5)
    assert default.partition == 5
