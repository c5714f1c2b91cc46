package io.github.rdmacounters.autoconfigure.simulated;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import io.github.rdmacounters.autoconfigure.OnRdmaEnabledCondition;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SyntheticTraffic;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of synthetic traffic on the
 * simulated devices: each counter set's flow, and port traffic on devices without sets.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class)
@ConditionalOnBean({ SimulatedBackend.class, RdmaRegistry.class })
@Conditional(RdmaSimulatedTrafficAutoConfiguration.OnTrafficEnabled.class)
@EnableConfigurationProperties(RdmaProperties.class)
public final class RdmaSimulatedTrafficAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	SyntheticTraffic rdmaSyntheticTraffic(SimulatedBackend backend, RdmaRegistry registry, RdmaProperties properties) {
		SimulatedProperties.Traffic traffic = properties.simulated().traffic();
		List<SyntheticTraffic.Stream> streams = new ArrayList<>();
		for (ManagedDevice device : registry.devices()) {
			for (CounterSet set : device.counterSets()) {
				SimulatedProperties.SetTraffic own = traffic.sets().get(set.name());
				double rate = (own != null && own.packetsPerSecond() != null) ? own.packetsPerSecond()
						: traffic.packetsPerSecond();
				int size = (own != null && own.packetSize() != null) ? own.packetSize() : traffic.packetSize();
				streams.add(new SyntheticTraffic.Stream(device.name(), set.name(), set.port(), set.spec(), rate, size));
			}
		}
		// devices without sets still see traffic, in their port counters
		backend.devices().stream().filter((device) -> registry.device(device.name()) == null).forEach((device) -> {
			streams.add(new SyntheticTraffic.Stream(device.name(), "port", 1, FlowSpec.any(),
					traffic.packetsPerSecond(), traffic.packetSize()));
		});
		return SyntheticTraffic.start(backend, streams, traffic.interval());
	}

	/**
	 * Matches when {@code rdma.simulated.traffic.enabled} is true.
	 */
	static final class OnTrafficEnabled extends OnRdmaEnabledCondition {

		OnTrafficEnabled() {
			super(RdmaProperties.PREFIX + ".simulated.traffic.enabled", false,
					"whether to deliver synthetic traffic to the simulated devices");
		}

	}

}
