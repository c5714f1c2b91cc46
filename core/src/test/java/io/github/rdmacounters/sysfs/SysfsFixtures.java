package io.github.rdmacounters.sysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Access to the fixture trees under {@code src/test/resources/sysfs}.
 */
public final class SysfsFixtures {

	private static final Path UNPACKED = Path.of(System.getProperty("java.io.tmpdir"),
			"rdma-counters-sysfs-fixtures-" + ProcessHandle.current().pid());

	private SysfsFixtures() {
	}

	/**
	 * Return the root of a fixture tree.
	 * @param name the fixture, e.g. {@code mlx5-roce}
	 * @return the directory holding the fixture's device directory
	 */
	public static Path root(String name) {
		URL url = SysfsFixtures.class.getResource("/sysfs/" + name);
		if (url == null) {
			throw new IllegalArgumentException("No sysfs fixture named " + name);
		}
		try {
			if (!"jar".equals(url.getProtocol())) {
				return Paths.get(url.toURI());
			}
			// From core's test-jar (another module's tests): unpack the tree once per JVM
			return unpacked(url, name);
		}
		catch (URISyntaxException | IOException ex) {
			throw new IllegalStateException("Cannot read sysfs fixture " + name + " from " + url, ex);
		}
	}

	private static synchronized Path unpacked(URL url, String name) throws URISyntaxException, IOException {
		Path target = UNPACKED.resolve(name);
		if (Files.isDirectory(target)) {
			return target;
		}
		try (FileSystem jar = FileSystems.newFileSystem(url.toURI(), Map.of())) {
			Path source = jar.getPath("/sysfs/" + name);
			try (Stream<Path> paths = Files.walk(source)) {
				for (Path path : (Iterable<Path>) paths::iterator) {
					Path destination = target.resolve(source.relativize(path).toString());
					if (Files.isDirectory(path)) {
						Files.createDirectories(destination);
					}
					else {
						Files.copy(path, destination);
					}
				}
			}
		}
		return target;
	}

	/**
	 * Copy a fixture tree into a directory, so a test can change it.
	 * @param name the fixture
	 * @param target the directory to copy into
	 * @return {@code target}
	 */
	public static Path copy(String name, Path target) {
		Path source = root(name);
		try (Stream<Path> paths = Files.walk(source)) {
			paths.forEach((path) -> {
				Path destination = target.resolve(source.relativize(path).toString());
				try {
					if (Files.isDirectory(path)) {
						Files.createDirectories(destination);
					}
					else {
						Files.copy(path, destination);
					}
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return target;
	}

}
