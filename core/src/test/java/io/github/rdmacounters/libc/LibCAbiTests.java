package io.github.rdmacounters.libc;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.rdmacounters.testsupport.NativeBuild;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves the constants of {@link LibC} against the installed C library headers: a probe
 * compiled against them prints each one, and each must equal the Java value.
 *
 * @author rdma-counters
 */
class LibCAbiTests {

	private static Map<String, Long> header;

	@BeforeAll
	static void runProbe() {
		Map<String, Long> values = new HashMap<>();
		String output = NativeBuild.run(NativeBuild.executable("libc-probe/libc_probe.c", "libc-probe"));
		for (String line : output.split("\n")) {
			String[] parts = line.trim().split(" ");
			values.put(parts[0], Long.parseLong(parts[1]));
		}
		header = values;
	}

	private static long header(String name) {
		assertThat(header).as("the probe prints %s", name).containsKey(name);
		return header.get(name);
	}

	@Test
	void socketConstantsMatchHeaders() {
		assertThat(LibC.AF_INET).isEqualTo(header("AF_INET"));
		assertThat(LibC.SOCK_DGRAM).isEqualTo(header("SOCK_DGRAM"));
		assertThat(LibC.SOCK_CLOEXEC).isEqualTo(header("SOCK_CLOEXEC"));
	}

	@Test
	void fcntlAndEventfdFlagsMatchHeaders() {
		assertThat(LibC.F_GETFL).isEqualTo(header("F_GETFL"));
		assertThat(LibC.F_SETFL).isEqualTo(header("F_SETFL"));
		assertThat(LibC.O_NONBLOCK).isEqualTo(header("O_NONBLOCK"));
		assertThat(LibC.EFD_CLOEXEC).isEqualTo(header("EFD_CLOEXEC"));
		assertThat(LibC.EFD_NONBLOCK).isEqualTo(header("EFD_NONBLOCK"));
	}

	@Test
	void pollfdLayoutAndErrnoValuesMatchHeaders() {
		assertThat(LibC.POLLIN).isEqualTo((short) header("POLLIN"));
		assertThat(LibC.POLLFD_SIZE).isEqualTo(header("sizeof(pollfd)"));
		assertThat(LibC.POLLFD_EVENTS).isEqualTo(header("pollfd.events"));
		assertThat(LibC.POLLFD_REVENTS).isEqualTo(header("pollfd.revents"));
		assertThat(LibC.EAGAIN).isEqualTo(header("EAGAIN"));
		assertThat(LibC.EINTR).isEqualTo(header("EINTR"));
	}

}
