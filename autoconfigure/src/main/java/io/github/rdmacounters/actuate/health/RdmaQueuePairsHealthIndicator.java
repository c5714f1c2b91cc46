package io.github.rdmacounters.actuate.health;

import java.util.List;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import io.github.rdmacounters.core.ReadStall;
import io.github.rdmacounters.netlink.NldevQueuePair;
import io.github.rdmacounters.netlink.ProcessQueuePairs;

/**
 * Health of the queue pairs of this process (RDMA netlink): how many there are and which
 * are in the error state. A queue pair in error is a detail, not a failure: the
 * application owns it and decides whether to recreate it. Stays UP when RDMA netlink
 * cannot be asked, with the reason; DOWN while the read is past
 * {@code rdma.read-deadline}, naming the request, as the port counters are.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
public class RdmaQueuePairsHealthIndicator extends AbstractHealthIndicator {

	private final ProcessQueuePairs queuePairs;

	/**
	 * Create an indicator.
	 * @param queuePairs the queue pairs of this process
	 */
	public RdmaQueuePairsHealthIndicator(ProcessQueuePairs queuePairs) {
		super("RDMA queue pairs health check failed");
		this.queuePairs = queuePairs;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		ProcessQueuePairs.Snapshot snapshot = this.queuePairs.snapshot();
		ReadStall stall = this.queuePairs.reads().stall();
		if (stall != null) {
			builder.down()
				.withDetail("pid", this.queuePairs.pid())
				.withDetail("reason", PortCountersHealthIndicator.stalledReason(stall))
				.withDetail("stalled", PortCountersHealthIndicator.stalled(stall));
			return;
		}
		builder.up().withDetail("pid", this.queuePairs.pid());
		if (snapshot.unavailable() != null) {
			builder.withDetail("unavailable", snapshot.unavailable());
			return;
		}
		builder.withDetail("queuePairs",
				snapshot.devices().values().stream().mapToInt(List<NldevQueuePair>::size).sum());
		List<String> inError = snapshot.inError();
		if (!inError.isEmpty()) {
			builder.withDetail("queuePairsInError", inError);
		}
		if (!snapshot.failures().isEmpty()) {
			builder.withDetail("failures", snapshot.failures());
		}
	}

}
