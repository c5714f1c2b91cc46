package io.github.rdmacounters.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SyntheticTraffic;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of synthetic traffic on the
 * simulated device ({@code rdma.simulated.traffic.enabled=true}): packets matching each
 * counter set's flow at the configured rate and size, or, without sets, packets that move
 * the port counters. The context stops it before it closes the device.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class)
@ConditionalOnBean({ SimulatedBackend.class, ManagedDevice.class })
@ConditionalOnBooleanProperty("rdma.simulated.traffic.enabled")
public final class RdmaSimulatedTrafficAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SyntheticTraffic rdmaSyntheticTraffic(SimulatedBackend backend, ManagedDevice device, RdmaProperties properties) {
		RdmaProperties.Traffic traffic = properties.getSimulated().getTraffic();
		List<SyntheticTraffic.Stream> streams = new ArrayList<>();
		for (CounterSet set : device.counterSets()) {
			RdmaProperties.SetTraffic own = traffic.getSets().get(set.name());
			double rate = (own != null && own.getPacketsPerSecond() != null) ? own.getPacketsPerSecond()
					: traffic.getPacketsPerSecond();
			int size = (own != null && own.getPacketSize() != null) ? own.getPacketSize() : traffic.getPacketSize();
			streams.add(new SyntheticTraffic.Stream(set.name(), set.port(), set.spec(), rate, size));
		}
		if (streams.isEmpty()) {
			streams.add(new SyntheticTraffic.Stream("port", device.port(), FlowSpec.any(),
					traffic.getPacketsPerSecond(), traffic.getPacketSize()));
		}
		return SyntheticTraffic.start(backend, device.name(), streams, traffic.getInterval());
	}

}
