package io.github.rdmacounters.netlink;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.diagnosis.DiagnosisReport;
import io.github.rdmacounters.diagnosis.HostDiagnosis;
import io.github.rdmacounters.diagnosis.OptionalCountersReport;
import io.github.rdmacounters.simulated.SimulatedBackend;
import io.github.rdmacounters.simulated.SimulatedDeviceSpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The host diagnosis asks RDMA netlink, here the fake kernel's, which optional counters
 * each port has and which are enabled, and enables none.
 *
 * @author rdma-counters
 */
class DiagnosisOptionalCountersTests {

	private final FakeNldev fake = FakeNldev.get();

	@BeforeEach
	void setUp() {
		this.fake.reset();
	}

	@Test
	void optionalCountersOfEachPortAreListedWithThoseEnabled() {
		int device = this.fake.addDevice("mlx5_0", 1, 0x0c42a10300b1c2d3L, "28.39.1002", "roce");
		this.fake.addCounter(device, 1, "out_of_sequence", 3);
		this.fake.addOptionalCounter(device, 1, "cc_rx_ce_pkts", true, 17);
		this.fake.addOptionalCounter(device, 1, "cc_rx_cnp_pkts", false, 5);
		DiagnosisReport report = diagnose();
		assertThat(report.netlink().available()).isTrue();
		OptionalCountersReport optional = report.device("mlx5_0").port(1).optionalCounters();
		assertThat(optional.status()).isEqualTo("read");
		assertThat(optional.supported()).containsExactly("cc_rx_ce_pkts", "cc_rx_cnp_pkts");
		assertThat(optional.enabled()).containsExactly("cc_rx_ce_pkts");
		assertThat(this.fake.counterEnabled(device, 1, "cc_rx_cnp_pkts")).isFalse();
		assertThat(report.device("mlx5_0").findings())
			.anyMatch((finding) -> finding.what().equals("Optional counters not enabled: [cc_rx_cnp_pkts]")
					&& finding.action().startsWith("rdma statistic set link mlx5_0/1 optional-counters"));
	}

	@Test
	void deviceThatNetlinkDoesNotListIsSaidSo() {
		this.fake.addDevice("mlx5_7", 1, 0x1L, "28.39.1002", "roce");
		OptionalCountersReport optional = diagnose().device("mlx5_0").port(1).optionalCounters();
		assertThat(optional.status()).isEqualTo("failed");
		assertThat(optional.error()).isEqualTo("RDMA netlink does not list mlx5_0");
	}

	@Test
	void aKernelThatHoldsTheRequestIsReportedWithinTheTimeout() {
		this.fake.addDevice("mlx5_0", 1, 0x1L, "28.39.1002", "roce");
		this.fake.hold("stat_get_status");
		try {
			SimulatedBackend backend = new SimulatedBackend(
					List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build()));
			long started = System.nanoTime();
			DiagnosisReport report = HostDiagnosis.builder(backend)
				.netlink(this.fake::client)
				.fileTimeout(Duration.ofMillis(300))
				.build()
				.run();
			// a held request would take the fake client's reply timeout, 10 s
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
			assertThat(report.netlink().available()).isFalse();
			assertThat(report.netlink().error())
				.isEqualTo("no answer to RDMA_NLDEV_CMD_STAT_GET_STATUS of mlx5_0 port 1 within 300 ms: the device "
						+ "does not answer the kernel");
		}
		finally {
			this.fake.release();
		}
	}

	private DiagnosisReport diagnose() {
		SimulatedBackend backend = new SimulatedBackend(List.of(SimulatedDeviceSpec.builder().name("mlx5_0").build()));
		return HostDiagnosis.builder(backend).netlink(this.fake::client).build().run();
	}

}
