package io.github.rdmacounters.autoconfigure.observation;

import java.util.List;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Counter deltas on Micrometer observations ({@code rdma.observations}).
 *
 * @param enabled Whether the selected observations record what the chosen counter sets
 * counted while they ran, as rdma.observation.packets and rdma.observation.bytes and on
 * their spans. Each selected observation costs two fresh reads of every chosen set (a
 * firmware command each on mlx5).
 * @param names Names of the observations to record counter deltas for, e.g. checkpoint;
 * required when enabled. Never every HTTP request.
 * @param sets Names of the counter sets to read around each selected observation;
 * required when enabled.
 * @param portCounters File names of port counters (under counters/ or hw_counters/, such
 * as out_of_sequence, local_ack_timeout_err, np_cnp_sent) of the ports of the chosen sets
 * to read fresh around each selected observation, recorded as
 * rdma.observation.port.delta; RoCEv2 traffic is in no flow counter but in these. Each
 * costs two fresh reads of these files per selected observation.
 * @param queuePairCounters Names of hardware counters (as under hw_counters/, such as
 * out_of_sequence, local_ack_timeout_err, roce_adp_retrans) of this process's queue pairs
 * to read fresh around each selected observation, recorded as
 * rdma.observation.queue.pair.delta per device and port: what the observed work cost the
 * queue pairs this process created (UCX, libfabric, verbs), which no flow counter sees.
 * Needs rdma.queue-pairs.enabled=true. Each costs two fresh reads of this process's queue
 * pairs and counters per selected observation (netlink dumps of each device).
 * @since 0.1.0
 * @author rdma-counters
 */
public record RdmaObservationsProperties(@DefaultValue("false") boolean enabled, @DefaultValue List<String> names,
		@DefaultValue List<String> sets, @DefaultValue List<String> portCounters,
		@DefaultValue List<String> queuePairCounters) {

}
