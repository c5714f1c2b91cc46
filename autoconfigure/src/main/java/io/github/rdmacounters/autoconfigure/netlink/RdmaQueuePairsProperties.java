package io.github.rdmacounters.autoconfigure.netlink;

import org.springframework.boot.context.properties.bind.DefaultValue;

import io.github.rdmacounters.netlink.QueuePairCounters;

/**
 * The queue pairs of this process, read over RDMA netlink ({@code rdma.queue-pairs}).
 *
 * @param enabled Whether the queue pairs of this process are counted by type and state as
 * meters, in the rdma endpoint and in health, and bound to hardware counters. Off by
 * default: only a process that creates RDMA queue pairs (UCX, libfabric, DiSNI, verbs)
 * has any besides the raw packet queue pairs of its counter sets.
 * @param counters The hardware counters of this process's queue pairs.
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaQueuePairsProperties(@DefaultValue("false") boolean enabled, @DefaultValue Counters counters) {

	/**
	 * The hardware counters of this process's queue pairs, through counter binding
	 * ({@code rdma.queue-pairs.counters}).
	 *
	 * @param binding How this process's queue pairs are bound to hardware counters:
	 * manual (each by its number; needs CAP_NET_ADMIN), auto (switches the port to auto
	 * mode by type and pid if its mode is none, for every process, and never switches it
	 * off) or none (binds nothing; counters others bound to them are still read).
	 * @param perQueuePair Whether each queue pair gets a counter of its own and series
	 * tagged with its number (qpn), instead of one counter per port and queue pair type.
	 * Manual binding only; one series per queue pair and counter.
	 */
	public record Counters(@DefaultValue("manual") QueuePairCounters.Binding binding,
			@DefaultValue("false") boolean perQueuePair) {

	}

}
