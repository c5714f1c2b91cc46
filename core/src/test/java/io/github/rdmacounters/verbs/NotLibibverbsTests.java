package io.github.rdmacounters.verbs;

import java.lang.reflect.Modifier;
import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.github.rdmacounters.core.RdmaUnavailableException;
import io.github.rdmacounters.core.RdmaUnavailableException.Reason;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests that a library that loads but is not libibverbs (the C library) is refused once,
 * when it is loaded, as a cause of unavailability naming the value given and the verb it
 * lacks, and that no {@link UnsatisfiedLinkError} reaches a later call.
 *
 * @author rdma-counters
 */
class NotLibibverbsTests {

	@Test
	void libcIsRefusedOnceAsNotLibibverbsNamingTheValueAndTheFirstMissingVerb() {
		NativeBackend backend = new NativeBackend("libc.so.6");
		RdmaUnavailableException cause = backend.unavailabilityCause();
		assertThat(cause).isInstanceOfSatisfying(NotLibibverbsException.class, (ex) -> {
			assertThat(ex.reason()).isEqualTo(Reason.LIBRARY_NOT_LOADABLE);
			assertThat(ex.library()).isEqualTo("libc.so.6");
			assertThat(ex.missing()).startsWith("ibv_get_device_list")
				.contains("ibv_open_device", "ibv_close_device", "ibv_query_port", "ibv_get_async_event")
				.hasSize((int) Arrays.stream(IbvLibrary.class.getDeclaredMethods())
					.filter((method) -> Modifier.isAbstract(method.getModifiers()))
					.count());
			assertThat(ex)
				.hasMessageStartingWith(
						"The library 'libc.so.6' loads but is not libibverbs: it has no ibv_get_device_list (nor ")
				.hasNoCause();
		});
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(backend::devices).isSameAs(cause);
		assertThatExceptionOfType(RdmaUnavailableException.class).isThrownBy(() -> backend.open("mlx5_0"))
			.isSameAs(cause);
	}

	@Test
	void fakeAndInstalledLibibverbsExportEveryVerbTheBindingCalls() {
		assertThat(new NativeBackend(FakeVerbs.get().libraryPath()).unavailabilityCause()).isNull();
		assertThat(new NativeBackend().unavailabilityCause()).as("libibverbs.so.1 loads").isNull();
	}

}
