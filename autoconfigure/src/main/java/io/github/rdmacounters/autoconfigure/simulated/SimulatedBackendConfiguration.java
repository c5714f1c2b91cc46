package io.github.rdmacounters.autoconfigure.simulated;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

/**
 * The simulated backend, when {@code rdma.backend=simulated}: the devices of
 * {@code rdma.simulated.devices}, or one sim_mlx5_0. Imported by
 * {@link RdmaAutoConfiguration}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnMissingBean(RdmaBackend.class)
@ConditionalOnProperty(prefix = RdmaProperties.PREFIX, name = "backend", havingValue = "simulated")
public final class SimulatedBackendConfiguration {

	@Bean("rdmaBackend")
	@DependsOn("rdmaCounterSetPlan") // the properties checked first
	SimulatedBackend rdmaSimulatedBackend(RdmaProperties properties) {
		List<SimulatedDeviceSpec> specs = new ArrayList<>();
		properties.simulated()
			.effectiveDevices()
			.forEach((name,
					device) -> specs.add(SimulatedDeviceSpec.builder()
						.name(name)
						.nodeGuid(0x0c42a10300650f2cL + specs.size() * 0x100L)
						.portCount(device.ports())
						.linkLayer(device.linkLayer())
						.countersSupported(device.countersSupported())
						.roceEnabled(device.roceEnabled())
						.managedFlowSteering(device.managedFlowSteering())
						.netdevs(device.netdevs())
						.build()));
		return new SimulatedBackend(specs);
	}

}
