package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Tests for {@link FileSystemSysfsTree}.
 */
class FileSystemSysfsTreeTests {

	@Test
	void aFileLargerThanTheReadBufferIsReadWhole(@TempDir Path root) throws IOException {
		String large = "x".repeat(1000) + "\n";
		Files.writeString(root.resolve("large"), large);
		Files.writeString(root.resolve("small"), "42\n");
		FileSystemSysfsTree tree = new FileSystemSysfsTree(root);
		assertThat(tree.read("large")).isEqualTo(large);
		assertThat(tree.read("small")).isEqualTo("42\n");
		assertThat(tree.read("large")).isEqualTo(large);
	}

	@Test
	void aDirectoryOrMissingFileFailsToRead(@TempDir Path root) throws IOException {
		Files.createDirectory(root.resolve("counters"));
		FileSystemSysfsTree tree = new FileSystemSysfsTree(root);
		assertThatIOException().isThrownBy(() -> tree.read("counters"));
		assertThatIOException().isThrownBy(() -> tree.read("nothing"));
	}

	@Test
	void anInterruptedThreadReadsEveryFileAndKeepsItsInterruptFlag(@TempDir Path root) throws IOException {
		Files.writeString(root.resolve("port_rcv_data"), "42\n");
		Files.writeString(root.resolve("port_xmit_data"), "7\n");
		FileSystemSysfsTree tree = new FileSystemSysfsTree(root);
		Thread.currentThread().interrupt();
		try {
			assertThat(tree.read("port_rcv_data")).isEqualTo("42\n");
			assertThat(tree.read("port_xmit_data")).isEqualTo("7\n");
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void directoryKeyStaysWhileTheDirectoryStaysAndChangesWhenItIsMadeAnew(@TempDir Path root) throws IOException {
		Path first = Files.createDirectories(root.resolve("devices/0000:08:00.0/infiniband/mlx5_0"));
		Files.createSymbolicLink(root.resolve("mlx5_0"), Paths.get("devices/0000:08:00.0/infiniband/mlx5_0"));
		Files.writeString(root.resolve("node_guid"), "0000:0000:0000:0001\n");
		FileSystemSysfsTree tree = new FileSystemSysfsTree(root);
		Object key = tree.directoryKey("mlx5_0");
		assertThat(key).isNotNull().isEqualTo(tree.directoryKey("mlx5_0"));
		Files.writeString(first.resolve("fw_ver"), "22.31.1014\n");
		Object afterWrite = tree.directoryKey("mlx5_0");
		assertThat(afterWrite).isNotNull();
		// made anew while the first still exists, so that the file system cannot reuse
		// its inode: a driver reload registers the device in a new directory
		Path second = Files.createDirectories(root.resolve("devices/0000:09:00.0/infiniband/mlx5_0"));
		Files.delete(root.resolve("mlx5_0"));
		Files.createSymbolicLink(root.resolve("mlx5_0"), root.relativize(second));
		assertThat(tree.directoryKey("mlx5_0")).isNotNull().isNotEqualTo(afterWrite);
		assertThat(tree.directoryKey("nothing")).isNull();
		assertThat(tree.directoryKey("node_guid")).isNull();
	}

	@Test
	void resolvedNameFollowsLinksAndIsNullForAMissingPath(@TempDir Path root) throws IOException {
		Path function = Files.createDirectories(root.resolve("devices/0000:08:00.0"));
		Files.createDirectories(root.resolve("mlx5_0"));
		Files.createSymbolicLink(root.resolve("mlx5_0/device"), Paths.get("../devices/0000:08:00.0"));
		FileSystemSysfsTree tree = new FileSystemSysfsTree(root);
		assertThat(tree.resolvedName("mlx5_0/device")).isEqualTo(function.getFileName().toString());
		assertThat(tree.resolvedName("mlx5_0/device/physfn")).isNull();
		assertThat(tree.resolvedName("mlx5_9/device")).isNull();
	}

	@Test
	void aFileReadAgainIsKeptOpenAndReadsItsContentOfNowUntilReleasedOrClosed(@TempDir Path root) throws IOException {
		Files.createDirectories(root.resolve("mlx5_0/ports/1/counters"));
		Files.writeString(root.resolve("mlx5_0/ports/1/counters/symbol_error"), "1\n");
		Files.writeString(root.resolve("mlx5_0/fw_ver"), "20.31.1014\n");
		try (FileSystemSysfsTree tree = new FileSystemSysfsTree(root, true)) {
			assertThat(tree.readCounter("mlx5_0/ports/1/counters/symbol_error")).isEqualTo(1L);
			assertThat(tree.keptFiles()).as("read once, as by a source made for one look").isZero();
			assertThat(tree.readCounter("mlx5_0/ports/1/counters/symbol_error")).isEqualTo(1L);
			assertThat(tree.read("mlx5_0/fw_ver")).isEqualTo("20.31.1014\n");
			assertThat(tree.read("mlx5_0/fw_ver")).isEqualTo("20.31.1014\n");
			assertThat(tree.keptFiles()).isEqualTo(2);
			// written in place, as the kernel's show method gives a new value
			Files.writeString(root.resolve("mlx5_0/ports/1/counters/symbol_error"), "12345678901234567890\n");
			assertThat(tree.readCounter("mlx5_0/ports/1/counters/symbol_error")).isEqualTo(-6101065172474983726L);
			Files.writeString(root.resolve("mlx5_0/ports/1/counters/symbol_error"), "7\n");
			assertThat(tree.readCounter("mlx5_0/ports/1/counters/symbol_error")).isEqualTo(7L);
			assertThat(tree.keptFiles()).isEqualTo(2);
			tree.release("mlx5_0/ports/1");
			assertThat(tree.keptFiles()).isEqualTo(1);
			tree.release("mlx5_0");
			assertThat(tree.keptFiles()).isZero();
			tree.read("mlx5_0/fw_ver");
			tree.read("mlx5_0/fw_ver");
			assertThat(tree.keptFiles()).isEqualTo(1);
			tree.close();
			assertThat(tree.keptFiles()).isZero();
			assertThat(tree.read("mlx5_0/fw_ver")).isEqualTo("20.31.1014\n");
			assertThat(tree.read("mlx5_0/fw_ver")).isEqualTo("20.31.1014\n");
			assertThat(tree.keptFiles()).as("closed: nothing kept any more").isZero();
		}
	}

	@Test
	void filesAreKeptOpenOnSysfsOnlyWhereAFileDeletedWhileOpenCannotBeRead(@TempDir Path root) throws IOException {
		Files.writeString(root.resolve("symbol_error"), "1\n");
		try (FileSystemSysfsTree tree = new FileSystemSysfsTree(root)) {
			assertThat(tree.keepsFilesOpen()).isFalse();
			tree.read("symbol_error");
			tree.read("symbol_error");
			assertThat(tree.keptFiles()).isZero();
			Files.delete(root.resolve("symbol_error"));
			assertThatIOException().isThrownBy(() -> tree.read("symbol_error"));
		}
	}

	/**
	 * A kept sysfs file read again at offset 0 gives the value of now: the loopback
	 * interface's packet counter, read around packets sent to it.
	 */
	@Test
	void aKeptSysfsFileReadsTheValueOfNow() throws IOException {
		Path net = Path.of("/sys/class/net");
		assertThat(net.resolve("lo/statistics/tx_packets"))
			.as("this test reads the loopback interface's counters in sysfs: mount sysfs on /sys")
			.isReadable();
		try (FileSystemSysfsTree tree = new FileSystemSysfsTree(net)) {
			assertThat(tree.keepsFilesOpen()).isTrue();
			Long before = tree.readCounter("lo/statistics/tx_packets");
			tree.readCounter("lo/statistics/tx_packets");
			assertThat(tree.keptFiles()).isEqualTo(1);
			try (DatagramSocket socket = new DatagramSocket()) {
				for (int i = 0; i < 5; i++) {
					socket.send(new DatagramPacket(new byte[1], 1, InetAddress.getLoopbackAddress(), 9));
				}
			}
			assertThat(tree.readCounter("lo/statistics/tx_packets")).isGreaterThanOrEqualTo(before + 5);
			assertThat(tree.keptFiles()).isEqualTo(1);
		}
	}

}
