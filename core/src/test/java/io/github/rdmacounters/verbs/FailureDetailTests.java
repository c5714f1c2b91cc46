package io.github.rdmacounters.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.github.rdmacounters.core.CounterType;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.FlowSpec;
import io.github.rdmacounters.core.L4Protocol;
import io.github.rdmacounters.core.RdmaDevice;
import io.github.rdmacounters.core.RdmaOperationException;
import io.github.rdmacounters.testsupport.FakeVerbs;
import io.github.rdmacounters.testsupport.FakeVerbsExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Tests that the binding explains the errno values of real kernels and libraries in its
 * messages: {@code EINVAL} on a counted don't-trap flow (Linux before 5.8),
 * {@code ENOMEM} on a flow (the priority limit or a full steering table), and
 * {@code ENOSYS} from the dummy ops of rdma-core before 28.
 *
 * @author rdma-counters
 */
@ExtendWith(FakeVerbsExtension.class)
class FailureDetailTests {

	private final FakeVerbs fake = FakeVerbs.get();

	private final NativeBackend backend = this.fake.backend();

	private static FlowSpec nvmeTcp(boolean dontTrap) {
		return FlowSpec.builder().protocol(L4Protocol.TCP).destinationPort(4420).priority(2).dontTrap(dontTrap).build();
	}

	/**
	 * The message of the exception {@code createFlow} throws on mlx5_0 when
	 * {@code ibv_create_flow} fails with the errno.
	 */
	private String createFlowFailure(int errno, boolean dontTrap) {
		this.fake.device("mlx5_0").add();
		try (RdmaDevice device = this.backend.open("mlx5_0")) {
			Counters counters = device.createCounters();
			counters.attach(CounterType.PACKETS, 0);
			this.fake.failNext("ibv_create_flow", errno);
			RdmaOperationException failure = catchThrowableOfType(RdmaOperationException.class,
					() -> device.createFlow(1, nvmeTcp(dontTrap), counters));
			assertThat(failure).isNotNull();
			return failure.getMessage();
		}
	}

	@Test
	void einvalOnADontTrapCountFlowNamesTheKernelRequirement() {
		assertThat(createFlowFailure(Errno.EINVAL, true))
			.startsWith("ibv_create_flow failed: EINVAL (22) Invalid argument")
			.contains("needs Linux 5.8 or later (commit 8e14c75c999a)");
	}

	@Test
	void einvalOnATrappingFlowDoesNotBlameTheKernel() {
		assertThat(createFlowFailure(Errno.EINVAL, false)).startsWith("ibv_create_flow failed: EINVAL (22)")
			.doesNotContain("Linux 5.8");
	}

	@Test
	void enomemOnCreateFlowNamesThePriorityLimitAndTheTableNotFlowSteering() {
		assertThat(createFlowFailure(Errno.ENOMEM, true))
			.startsWith("ibv_create_flow failed: ENOMEM (12) Cannot allocate memory")
			.contains("at priority 2: the flow's priority is beyond the provider's user flow priorities")
			.contains("steering table is full")
			.doesNotContain("MANAGED_FLOW_STEERING");
	}

	@Test
	void enosysFromAnOldDummyCreateCountersGetsTheMlx5Hint() {
		this.fake.device("rxe0").add();
		try (RdmaDevice device = this.backend.open("rxe0")) {
			this.fake.failNext("ibv_create_counters", Errno.ENOSYS);
			assertThatExceptionOfType(RdmaOperationException.class).isThrownBy(device::createCounters)
				.withMessageStartingWith("ibv_create_counters failed: ENOSYS (38) Function not implemented")
				.withMessageContaining("only the mlx5 provider implements flow counters");
		}
	}

}
