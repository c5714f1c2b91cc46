package io.github.rdmacounters.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Warns once at startup about settings written for a feature that another setting
 * switches off, naming both: they are not refused (switching a feature off must not need
 * its settings removed) but they have no effect.
 *
 * @author rdma-counters
 */
final class DependentSettings {

	private static final Log logger = LogFactory.getLog(DependentSettings.class);

	private static final String QUEUE_PAIRS = RdmaProperties.PREFIX + ".queue-pairs";

	private static final String EVENTS = RdmaProperties.PREFIX + ".events";

	private static final String UI = RdmaProperties.PREFIX + ".ui";

	private static final String ETHTOOL = RdmaProperties.PREFIX + ".ethtool";

	private static final String OPTIONAL_COUNTERS = RdmaProperties.PREFIX + ".optional-counters";

	private static final String PORT_COUNTERS = RdmaProperties.PREFIX + ".port-counters";

	private static final String TRAFFIC = RdmaProperties.PREFIX + ".simulated.traffic";

	private DependentSettings() {
	}

	/**
	 * Warn about the settings that have no effect.
	 * @param properties the bound properties
	 * @param written the value of a property as written, or {@code null} if it is not set
	 */
	static void warn(RdmaProperties properties, Function<String, @Nullable Object> written) {
		if (!properties.queuePairs().enabled()) {
			warn(QUEUE_PAIRS + ".enabled", false, written,
					List.of(QUEUE_PAIRS + ".counters.binding", QUEUE_PAIRS + ".counters.per-queue-pair"));
		}
		if (properties.observations().enabled() && !properties.queuePairs().enabled()) {
			// with observations off, the observations' own warning names it
			warn(QUEUE_PAIRS + ".enabled", false, written,
					List.of(RdmaProperties.PREFIX + ".observations.queue-pair-counters"));
		}
		if (!properties.events().enabled()) {
			warn(EVENTS + ".enabled", false, written,
					List.of(EVENTS + ".monitor.enabled", EVENTS + ".port-down-readiness",
							EVENTS + ".reopen-backoff.initial", EVENTS + ".reopen-backoff.max"));
		}
		if (!properties.ethtool().enabled()) {
			warn(ETHTOOL + ".enabled", false, written, List.of(ETHTOOL + ".include", ETHTOOL + ".exclude",
					ETHTOOL + ".pause-storm.pause-share", ETHTOOL + ".pause-storm.window"));
		}
		if (!properties.optionalCounters().enabled()) {
			List<String> optional = new ArrayList<>(List.of(OPTIONAL_COUNTERS + ".enable"));
			for (String device : properties.optionalCounters().devices().keySet()) {
				optional.add(OPTIONAL_COUNTERS + ".devices." + device + ".enable");
			}
			warn(OPTIONAL_COUNTERS + ".enabled", false, written, optional);
		}
		if (!properties.ui().enabled()) {
			warn(UI + ".enabled", false, written, List.of(UI + ".path", UI + ".poll-interval"));
		}
		if (!properties.portCounters().enabled()) {
			// sysfs-root is left out: it is also where a set's netdev is looked up
			warn(PORT_COUNTERS + ".enabled", false, written,
					List.of(PORT_COUNTERS + ".include", PORT_COUNTERS + ".exclude", PORT_COUNTERS + ".devices.include",
							PORT_COUNTERS + ".devices.exclude"));
		}
		// on the native backend every simulated setting is warned about as such
		if (properties.backend() == RdmaProperties.Backend.SIMULATED && !properties.simulated().traffic().enabled()) {
			List<String> traffic = new ArrayList<>(
					List.of(TRAFFIC + ".interval", TRAFFIC + ".packets-per-second", TRAFFIC + ".packet-size"));
			for (String set : properties.simulated().traffic().sets().keySet()) {
				traffic.add(TRAFFIC + ".sets." + set + ".packets-per-second");
				traffic.add(TRAFFIC + ".sets." + set + ".packet-size");
			}
			warn(TRAFFIC + ".enabled", false, written, traffic);
		}
	}

	private static void warn(String switchName, boolean value, Function<String, @Nullable Object> written,
			List<String> dependents) {
		List<String> set = new ArrayList<>();
		for (String dependent : dependents) {
			Object raw = written.apply(dependent);
			if (raw != null) {
				set.add(dependent + "=" + raw);
			}
			else if (written.apply(dependent + "[0]") != null) {
				// a list written item by item
				set.add(dependent + "[0]=" + written.apply(dependent + "[0]"));
			}
		}
		if (!set.isEmpty()) {
			logger.warn(String.join(", ", set) + ((set.size() == 1) ? " has" : " have") + " no effect: " + switchName
					+ "=" + value + " switches that feature off; remove " + ((set.size() == 1) ? "it" : "them")
					+ ", or set " + switchName + "=" + !value);
		}
	}

}
