package io.github.rdmacounters.core;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CounterSetTarget}: the checks of where a set counts, as written.
 *
 * @author rdma-counters
 */
class CounterSetTargetTests {

	private static final String SET = "rdma.counter-sets.storage";

	private static final CounterSetDefinition STORAGE = CounterSetDefinition.of("storage",
			FlowSpec.builder().protocol(L4Protocol.TCP).build());

	@Test
	void aDeviceOrANetdevOrNeitherHasNoProblem() {
		assertThat(CounterSetTarget.problems(SET, "mlx5_0", null)).isEmpty();
		assertThat(CounterSetTarget.problems(SET, null, " ens1f0np0 ")).isEmpty();
		assertThat(CounterSetTarget.problems(SET, null, null)).isEmpty();
	}

	@Test
	void bothADeviceAndANetdevNameTheNetdevAsWritten() {
		assertThat(CounterSetTarget.problems(SET, " mlx5_0", "ens1f0np0 "))
			.containsExactly(new Problem(SET + ".netdev", "ens1f0np0 ",
					"names the device a second time (rdma.counter-sets.storage.device is mlx5_0): set either device "
							+ "or netdev"));
	}

	@Test
	void aDeviceNameNoDeviceCanHaveIsAProblemOfTheDevice() {
		for (String device : new String[] { " ", "mlx5/0", "mlx5 0", "m".repeat(64) }) {
			assertThat(CounterSetTarget.problems(SET, device, null)).as(device)
				.singleElement()
				.isEqualTo(new Problem(SET + ".device", device, "must be an RDMA device name such as mlx5_0, at most "
						+ "63 characters (IB_DEVICE_NAME_MAX), or left out for the host's only device with flow "
						+ "counters"));
		}
		assertThat(CounterSetTarget.problems(SET, "m".repeat(63), null)).isEmpty();
	}

	@Test
	void aNetdevNameNoInterfaceCanHaveIsAProblemOfTheNetdev() {
		// net/core/dev.c dev_valid_name: also not "." or "..", no ':' or white space
		for (String netdev : new String[] { "", "ens1/f0", "ens1f0np0ens1f0n", ".", "..", "eth0:1", "ens 1" }) {
			assertThat(CounterSetTarget.problems(SET, null, netdev)).as(netdev)
				.singleElement()
				.isEqualTo(new Problem(SET + ".netdev", netdev,
						"must be a network interface name such as ens1f0np0, at most 15 characters (IFNAMSIZ)"));
		}
		assertThat(CounterSetTarget.problems(SET, null, "ens1f0np0ens1f0")).isEmpty();
		assertThat(CounterSetTarget.problems(SET, "mlx5_0", " ")).as("blank beside a device")
			.extracting(Problem::property)
			.containsExactly(SET + ".netdev");
	}

	@Test
	void aTargetIsMadeOfTheTrimmedValuesABlankOneNamingNothing() {
		assertThat(CounterSetTarget.of(STORAGE, " mlx5_0 ", " "))
			.isEqualTo(new CounterSetTarget(STORAGE, "mlx5_0", null));
		assertThat(CounterSetTarget.of(STORAGE, null, "ens1f0np0 "))
			.isEqualTo(new CounterSetTarget(STORAGE, null, "ens1f0np0"));
	}

	@Test
	void aTargetCannotNameBothADeviceAndANetdev() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CounterSetTarget(STORAGE, "mlx5_0", "ens1f0np0"))
			.withMessage("Set 'storage' names both a device and a network interface");
	}

}
