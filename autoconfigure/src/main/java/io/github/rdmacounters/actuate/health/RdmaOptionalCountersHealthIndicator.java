package io.github.rdmacounters.actuate.health;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.netlink.OptionalCounters;
import io.github.rdmacounters.netlink.OptionalCountersSnapshot;

/**
 * Health of the optional counters (RDMA netlink): how many ports have them, and whether
 * their read is stuck. DOWN while a read is past {@code rdma.read-deadline}, naming the
 * request ({@code stalled}: {@code in}, {@code runningMillis}, {@code stalls}), as the
 * port counters are; UP with the reason when RDMA netlink cannot be asked (a kernel older
 * than 5.16, no RDMA netlink), as the application goes on without them. Answers within
 * the deadline.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaOptionalCountersHealthIndicator extends AbstractHealthIndicator {

	private final OptionalCounters optionalCounters;

	/**
	 * Create an indicator.
	 * @param optionalCounters the optional counters
	 */
	public RdmaOptionalCountersHealthIndicator(OptionalCounters optionalCounters) {
		super("RDMA optional counters health check failed");
		this.optionalCounters = optionalCounters;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		OptionalCountersSnapshot snapshot = this.optionalCounters.snapshot();
		ReadStall stall = this.optionalCounters.reads().stall();
		if (stall != null) {
			builder.down()
				.withDetail("reason", PortCountersHealthIndicator.stalledReason(stall))
				.withDetail("stalled", PortCountersHealthIndicator.stalled(stall));
			return;
		}
		builder.up();
		if (snapshot.unavailable() != null) {
			builder.withDetail("unavailable", snapshot.unavailable());
			return;
		}
		builder.withDetail("ports", snapshot.ports().size());
		if (!snapshot.failures().isEmpty()) {
			builder.withDetail("failures", snapshot.failures());
		}
	}

}
