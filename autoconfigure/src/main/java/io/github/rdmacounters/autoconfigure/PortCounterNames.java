package io.github.rdmacounters.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import io.github.rdmacounters.core.HostPortCountersSnapshot;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.RdmaBackend;

/**
 * Warns once at startup about {@code rdma.port-counters.include} and {@code exclude}
 * entries that match none of the counter files of the host's devices (a typo reads
 * nothing it was meant to), and about an exclude that matches all of them.
 *
 * @author rdma-counters
 */
final class PortCounterNames {

	private static final Log logger = LogFactory.getLog(PortCounterNames.class);

	private static final String PREFIX = RdmaProperties.PREFIX + ".port-counters";

	/** How many of the host's names a warning offers. */
	private static final int CLOSEST = 3;

	private PortCounterNames() {
	}

	/**
	 * List the counter files of the devices the device filter keeps, reading none, and
	 * warn about the entries that match none of them.
	 * @param backend the backend
	 * @param root the sysfs root
	 * @param deviceFilter the device filter
	 * @param portCounters the port counter settings
	 * @param readDeadline the deadline of the read
	 */
	static void warnIfUnmatched(RdmaBackend backend, Path root, Predicate<String> deviceFilter,
			RdmaProperties.PortCounters portCounters, Duration readDeadline) {
		// the counter filter is asked about every file listed, and reading none of them
		// costs no MAD to the firmware (see PortCountersReadFilterTests)
		Set<String> listed = new ConcurrentSkipListSet<>();
		try {
			HostPortCountersSnapshot snapshot = backend.hostPortCounters(root, deviceFilter, (counter) -> {
				listed.add(counter);
				return false;
			}, Duration.ZERO, readDeadline).snapshot();
			if (snapshot.stall() != null) {
				return;
			}
		}
		catch (RuntimeException ex) {
			// unlistable: the endpoint and health say so
			logger.debug("Cannot list the port counters to check " + PREFIX + ".include and exclude", ex);
			return;
		}
		Set<String> names = new TreeSet<>(listed);
		if (names.isEmpty()) {
			return;
		}
		warnUnmatched(PREFIX + ".include", portCounters.include(), names);
		if (names.stream().noneMatch(NameFilter.of(List.of(), portCounters.exclude()))) {
			logger.warn(PREFIX + ".exclude=" + String.join(",", portCounters.exclude())
					+ " removes every port counter of this host's devices (" + names.size()
					+ "), so no port counter is read; exclude only the counters you do not want, or set " + PREFIX
					+ ".enabled=false");
			return;
		}
		warnUnmatched(PREFIX + ".exclude", portCounters.exclude(), names);
		if (!portCounters.include().isEmpty() && NameFilter.unmatched(portCounters.include(), names).isEmpty()
				&& names.stream().noneMatch(NameFilter.of(portCounters.include(), portCounters.exclude()))) {
			// each include entry names counters, and exclude takes every one of them back
			logger.warn(PREFIX + ".include=" + String.join(",", portCounters.include()) + " and " + PREFIX + ".exclude="
					+ String.join(",", portCounters.exclude())
					+ " leave none of the port counters of this host's devices: every counter included is excluded, "
					+ "so no port counter is read; remove from exclude what include names, or set " + PREFIX
					+ ".enabled=false");
		}
	}

	private static void warnUnmatched(String property, List<String> entries, Set<String> names) {
		for (int i : NameFilter.unmatched(entries, names)) {
			logger.warn(property + "[" + i + "]=" + entries.get(i) + " matches none of the " + names.size()
					+ " port counters of this host's devices (closest: "
					+ String.join(", ", NameFilter.closest(entries.get(i), names, CLOSEST))
					+ "); correct the name or glob (the files under counters/ and hw_counters/ of a port), "
					+ "or remove it");
		}
	}

}
