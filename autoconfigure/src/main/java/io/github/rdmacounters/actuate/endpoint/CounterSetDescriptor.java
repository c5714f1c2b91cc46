package io.github.rdmacounters.actuate.endpoint;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.CounterSetReading;
import io.github.rdmacounters.core.CounterType;

/**
 * One counter set: the flow it counts, its values and how the last read went. Components
 * are in alphabetical order, the order the endpoint's JSON shows them in.
 *
 * @param device the device the set counts on
 * @param failedReads the number of failed reads so far
 * @param flow the flow that feeds the set
 * @param lastError why the last read failed, or {@code null}
 * @param name the set name
 * @param port the port the flow is attached to
 * @param readAt when the values were read
 * @param readMode {@code fresh} or {@code prefer-cached}
 * @param readSucceeded whether the last read succeeded; if not, the values are the last
 * good ones
 * @param values the values by counter type, e.g. {@code packets} and {@code bytes}
 * @since 0.1.0
 * @author rdma-counters
 */
public record CounterSetDescriptor(String device, long failedReads, FlowDescriptor flow, @Nullable String lastError,
		String name, int port, Instant readAt, String readMode, boolean readSucceeded,
		Map<String, Long> values) implements OperationResponseBody {

	static CounterSetDescriptor of(CounterSet set, CounterSetReading reading) {
		Map<String, Long> values = new LinkedHashMap<>();
		for (CounterType type : CounterType.values()) {
			if (reading.has(type)) {
				values.put(type.name().toLowerCase(Locale.ROOT), reading.value(type));
			}
		}
		RuntimeException failure = reading.failure();
		String readMode = set.readMode().name().toLowerCase(Locale.ROOT).replace('_', '-');
		return new CounterSetDescriptor(set.deviceName(), reading.failedReads(), FlowDescriptor.of(set.spec()),
				(failure != null) ? failure.getMessage() : null, set.name(), set.port(), reading.readAt(), readMode,
				reading.isSuccess(), Collections.unmodifiableMap(values));
	}

}
