package io.github.rdmacounters.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.testsupport.ScriptedDevice;

/**
 * A registry of one scripted device, mlx5_0, with one counter set, roce, that matches any
 * traffic: what the health, metrics and endpoint auto-configurations are tested on.
 *
 * @author rdma-counters
 */
@Configuration(proxyBeanMethods = false)
public class OneScriptedDeviceConfiguration {

	@Bean
	ScriptedDevice scriptedDevice() {
		return new ScriptedDevice("mlx5_0", "simulated");
	}

	@Bean
	RdmaRegistry rdmaRegistry(ScriptedDevice device) {
		return new RdmaRegistry(List
			.of(new ManagedDevice(device, List.of(device.counterSet("roce", FlowSpec.any(), Duration.ZERO)), null)));
	}

}
