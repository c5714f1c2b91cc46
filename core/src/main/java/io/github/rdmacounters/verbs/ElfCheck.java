package io.github.rdmacounters.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.jspecify.annotations.Nullable;

/**
 * Checks that a file is a complete 64-bit ELF shared object before {@code dlopen} maps
 * it: glibc's loader dies with {@code SIGBUS}, taking the JVM, when a segment lies beyond
 * the end of a truncated file. Only the headers are read ({@code Elf64_Ehdr},
 * {@code Elf64_Phdr} of {@code <elf.h>}).
 */
final class ElfCheck {

	private static final int EHDR_SIZE = 64;

	private static final int PHDR_SIZE = 56;

	private static final int ELFCLASS64 = 2;

	private static final int ELFDATA2LSB = 1;

	private static final int ELFDATA2MSB = 2;

	private static final int ET_DYN = 3;

	private ElfCheck() {
	}

	// null for a complete shared object of this platform, or for what is not a regular
	// file (the loader's own error then names the problem)
	static @Nullable String problem(Path file) {
		if (!Files.isRegularFile(file)) {
			return null;
		}
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
			long size = channel.size();
			ByteBuffer header = read(channel, 0, EHDR_SIZE);
			byte[] magic = { 0x7f, 'E', 'L', 'F' };
			for (int i = 0; i < magic.length; i++) {
				if (i >= header.remaining()) {
					return "it is truncated: " + size + " bytes, less than an ELF header";
				}
				if (header.get(i) != magic[i]) {
					return "it is not an ELF file (no ELF magic number; " + size + " bytes)";
				}
			}
			if (header.remaining() < EHDR_SIZE) {
				return "it is truncated: " + size + " bytes, less than an ELF header";
			}
			if (header.get(4) != ELFCLASS64) {
				return "it is not a 64-bit ELF object (EI_CLASS " + header.get(4) + ")";
			}
			int data = header.get(5);
			ByteOrder nativeOrder = ByteOrder.nativeOrder();
			if (data != ((nativeOrder == ByteOrder.LITTLE_ENDIAN) ? ELFDATA2LSB : ELFDATA2MSB)) {
				return "its byte order (EI_DATA " + data + ") is not this platform's";
			}
			header.order(nativeOrder);
			int type = Short.toUnsignedInt(header.getShort(16));
			if (type != ET_DYN) {
				return "it is not a shared object (e_type " + type + ", a shared object has " + ET_DYN + ")";
			}
			long phoff = header.getLong(32);
			long shoff = header.getLong(40);
			int phentsize = Short.toUnsignedInt(header.getShort(54));
			int phnum = Short.toUnsignedInt(header.getShort(56));
			int shentsize = Short.toUnsignedInt(header.getShort(58));
			int shnum = Short.toUnsignedInt(header.getShort(60));
			String tables = beyond("program header table", phoff, (long) phnum * phentsize, size);
			if (tables == null && shoff != 0) {
				tables = beyond("section header table", shoff, (long) shnum * shentsize, size);
			}
			if (tables != null) {
				return tables;
			}
			if (phnum == 0 || phentsize < PHDR_SIZE) {
				return "it has no usable program headers (e_phnum " + phnum + ", e_phentsize " + phentsize + ")";
			}
			ByteBuffer programHeaders = read(channel, phoff, phnum * phentsize).order(nativeOrder);
			for (int i = 0; i < phnum; i++) {
				int at = i * phentsize;
				long offset = programHeaders.getLong(at + 8);
				long fileSize = programHeaders.getLong(at + 32);
				String segment = beyond("segment " + i, offset, fileSize, size);
				if (segment != null) {
					return segment;
				}
			}
			return null;
		}
		catch (IOException ex) {
			return "it cannot be read (" + ex.getMessage() + ")";
		}
	}

	private static @Nullable String beyond(String what, long offset, long length, long size) {
		if (offset < 0 || length < 0 || offset > size || length > size - offset) {
			return "it is truncated or corrupt: the file has " + size + " bytes but its " + what + " ends at byte "
					+ Long.toUnsignedString(offset + length);
		}
		return null;
	}

	private static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
		ByteBuffer buffer = ByteBuffer.allocate(length);
		while (buffer.hasRemaining()) {
			if (channel.read(buffer, position + buffer.position()) < 0) {
				break;
			}
		}
		buffer.flip();
		return buffer;
	}

}
