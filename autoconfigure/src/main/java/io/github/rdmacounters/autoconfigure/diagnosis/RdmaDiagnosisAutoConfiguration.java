package io.github.rdmacounters.autoconfigure.diagnosis;

import java.nio.file.Path;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

import io.github.rdmacounters.actuate.endpoint.RdmaDiagnosisEndpoint;
import io.github.rdmacounters.autoconfigure.RdmaAutoConfiguration;
import io.github.rdmacounters.autoconfigure.RdmaProperties;
import io.github.rdmacounters.core.RdmaBackend;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.diagnosis.HostDiagnosis;
import io.github.rdmacounters.diagnosis.HostPaths;

/**
 * {@link EnableAutoConfiguration Auto-configuration} of the host diagnosis: the
 * {@link HostDiagnosis} of the configured backend and sysfs root, an INFO line at startup
 * for each device whose counter sets cannot count, and the {@link RdmaDiagnosisEndpoint}.
 *
 * @since 0.1.0
 * @author rdma-counters
 */
@AutoConfiguration(after = RdmaAutoConfiguration.class)
@ConditionalOnBean(RdmaBackend.class)
public final class RdmaDiagnosisAutoConfiguration {

	// created at its first use: the endpoint, or a device whose sets cannot count
	@Bean
	@Lazy
	@ConditionalOnMissingBean
	HostDiagnosis rdmaHostDiagnosis(RdmaBackend backend, RdmaProperties properties) {
		return HostDiagnosis.builder(backend)
			.paths(HostPaths.system().withSysfsRoot(Path.of(properties.portCounters().sysfsRoot())))
			.build();
	}

	@Bean
	DiagnosisStartupLog rdmaDiagnosisStartupLog(ObjectProvider<HostDiagnosis> diagnosis,
			ObjectProvider<RdmaRegistry> registry) {
		return new DiagnosisStartupLog(diagnosis, registry);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
	@ConditionalOnAvailableEndpoint(RdmaDiagnosisEndpoint.class)
	static class EndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RdmaDiagnosisEndpoint rdmaDiagnosisEndpoint(HostDiagnosis diagnosis) {
			return new RdmaDiagnosisEndpoint(diagnosis);
		}

	}

}
