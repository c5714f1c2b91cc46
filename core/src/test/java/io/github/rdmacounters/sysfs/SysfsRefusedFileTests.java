package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.rdmacounters.core.Errno;
import io.github.rdmacounters.core.NameFilter;
import io.github.rdmacounters.core.PortStatus;
import io.github.rdmacounters.testsupport.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the backoff of a counter file whose read the kernel refuses. The refusing
 * file is a real one: a link to {@code /proc/self/clear_refs}, which has no read method,
 * so the kernel answers its read with {@code EINVAL} ({@code vfs_read} without
 * {@code f_op->read}), as an mlx5 PPCNT counter of a restricted function does when its
 * {@code ACCESS_REG} command fails. The time is the snapshots' clock, moved by the test.
 *
 * @author rdma-counters
 */
class SysfsRefusedFileTests {

	private static final String REFUSING = "mlx5_0/ports/1/counters/port_rcv_data";

	private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T08:00:00Z"));

	@TempDir
	Path temp;

	private HostSysfs host;

	private CountingSysfsTree tree;

	private SysfsHostPortCountersSource source;

	@BeforeEach
	void buildHost() throws IOException {
		this.host = HostSysfs.fourKinds(this.temp);
		Path file = this.host.file("mlx5_0", "ports/1/counters/port_rcv_data");
		Files.delete(file);
		Files.createSymbolicLink(file, Path.of("/proc/self/clear_refs"));
		this.tree = new CountingSysfsTree(new FileSystemSysfsTree(this.host.root()));
		this.source = new SysfsHostPortCountersSource(this.tree, NameFilter.all(), NameFilter.all(), Duration.ZERO,
				this.clock);
	}

	private PortStatus port() {
		return this.source.snapshot().device("mlx5_0").port(1);
	}

	private long reads() {
		return this.tree.reads().getOrDefault(REFUSING, 0L);
	}

	@Test
	void aRefusingFileIsReadOncePerBackoffAndIsUnreadableWithItsErrnoMeanwhile() {
		PortStatus first = port();
		assertThat(first.counterValue("port_rcv_data")).isNaN();
		assertThat(first.unreadable()).contains("counters/port_rcv_data");
		assertThat(first.refused()).containsExactly(Map.entry("counters/port_rcv_data", "EINVAL"));
		assertThat(first.counterValue("port_xmit_data")).as("the other files are read").isNotNaN();
		for (int i = 0; i < 100; i++) {
			this.clock.advance(Duration.ofMillis(500));
			PortStatus later = port();
			assertThat(later.counterValue("port_rcv_data")).isNaN();
			assertThat(later.refused()).containsEntry("counters/port_rcv_data", "EINVAL");
		}
		assertThat(reads()).as("reads of the refusing file in 101 snapshots over 50 s").isOne();
		this.clock.advance(Duration.ofSeconds(10));
		port();
		assertThat(reads()).as("read again a minute after the first").isEqualTo(2);
	}

	@Test
	void theBackoffDoublesFromOneMinuteToThirtyMinutes() {
		port();
		long reads = reads();
		for (long minutes : List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L)) {
			this.clock.advance(Duration.ofMinutes(minutes).minusSeconds(1));
			port();
			assertThat(reads()).as("before the backoff of %d min ends", minutes).isEqualTo(reads);
			this.clock.advance(Duration.ofSeconds(1));
			port();
			assertThat(reads()).as("when the backoff of %d min ends", minutes).isEqualTo(reads + 1);
			reads++;
		}
	}

	@Test
	void aFileThatAnswersAgainIsReadNormallyFromThen() throws IOException {
		port();
		Path file = this.host.file("mlx5_0", "ports/1/counters/port_rcv_data");
		Files.delete(file);
		Files.writeString(file, "5\n");
		this.clock.advance(Duration.ofMinutes(1));
		PortStatus answered = port();
		assertThat(answered.counterValue("port_rcv_data")).isEqualTo(20);
		assertThat(answered.refused()).isEmpty();
		assertThat(answered.unreadable()).doesNotContain("counters/port_rcv_data");
		long reads = reads();
		port();
		port();
		assertThat(reads()).isEqualTo(reads + 2);
	}

	@Test
	void onlyEinvalEioEaccesAndEpermAreRefusals() {
		assertThat(SysfsDeviceReader.refusedErrno(new IOException("Invalid argument"))).isEqualTo(Errno.EINVAL);
		assertThat(SysfsDeviceReader.refusedErrno(new IOException("Input/output error"))).isEqualTo(Errno.EIO);
		assertThat(SysfsDeviceReader.refusedErrno(new AccessDeniedException("/sys/x"))).isEqualTo(Errno.EACCES);
		assertThat(SysfsDeviceReader.refusedErrno(new FileSystemException("/sys/x", null, "Operation not permitted")))
			.isEqualTo(Errno.EPERM);
		assertThat(SysfsDeviceReader.refusedErrno(new IOException("No such device"))).isZero();
		assertThat(SysfsDeviceReader.refusedErrno(new IOException("Resource temporarily unavailable"))).isZero();
	}

}
