import Foundation
import GRDB

/// A music store shaped like the well-known public sample (artists, albums, tracks,
/// playlists joined to tracks by `PlaylistTrack`, invoices, customers with a support rep,
/// employees who report to employees), made by plain SQL with a few rows: a file Quarry
/// did not create. Returns its path.
func musicStoreFile() throws -> String {
    try foreignFile(musicStoreSQL)
}

/// Every row of `sqlite_master` of the file at `path`, as plain SQL reads it.
func schemaRows(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid").map { "\($0)" }
    }
}

let musicStoreSQL = """
    CREATE TABLE [Artist] ([ArtistId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));
    CREATE TABLE [Album] ([AlbumId] INTEGER NOT NULL, [Title] NVARCHAR(160) NOT NULL, [ArtistId] INTEGER NOT NULL, CONSTRAINT [PK_Album] PRIMARY KEY ([AlbumId]),
      FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE TABLE [Employee] ([EmployeeId] INTEGER NOT NULL, [LastName] NVARCHAR(20) NOT NULL, [FirstName] NVARCHAR(20) NOT NULL, [ReportsTo] INTEGER, [HireDate] DATETIME,
      CONSTRAINT [PK_Employee] PRIMARY KEY ([EmployeeId]), FOREIGN KEY ([ReportsTo]) REFERENCES [Employee] ([EmployeeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE TABLE [Customer] ([CustomerId] INTEGER NOT NULL, [FirstName] NVARCHAR(40) NOT NULL, [LastName] NVARCHAR(20) NOT NULL, [SupportRepId] INTEGER,
      CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]), FOREIGN KEY ([SupportRepId]) REFERENCES [Employee] ([EmployeeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE TABLE [Genre] ([GenreId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Genre] PRIMARY KEY ([GenreId]));
    CREATE TABLE [MediaType] ([MediaTypeId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_MediaType] PRIMARY KEY ([MediaTypeId]));
    CREATE TABLE [Track] ([TrackId] INTEGER NOT NULL, [Name] NVARCHAR(200) NOT NULL, [AlbumId] INTEGER, [MediaTypeId] INTEGER NOT NULL, [GenreId] INTEGER,
      [Milliseconds] INTEGER NOT NULL, [UnitPrice] NUMERIC(10,2) NOT NULL, CONSTRAINT [PK_Track] PRIMARY KEY ([TrackId]),
      FOREIGN KEY ([AlbumId]) REFERENCES [Album] ([AlbumId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
      FOREIGN KEY ([GenreId]) REFERENCES [Genre] ([GenreId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
      FOREIGN KEY ([MediaTypeId]) REFERENCES [MediaType] ([MediaTypeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE TABLE [Invoice] ([InvoiceId] INTEGER NOT NULL, [CustomerId] INTEGER NOT NULL, [InvoiceDate] DATETIME NOT NULL, [BillingCity] NVARCHAR(40), [Total] NUMERIC(10,2) NOT NULL,
      CONSTRAINT [PK_Invoice] PRIMARY KEY ([InvoiceId]), FOREIGN KEY ([CustomerId]) REFERENCES [Customer] ([CustomerId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE TABLE [InvoiceLine] ([InvoiceLineId] INTEGER NOT NULL, [InvoiceId] INTEGER NOT NULL, [TrackId] INTEGER NOT NULL, [UnitPrice] NUMERIC(10,2) NOT NULL, [Quantity] INTEGER NOT NULL,
      CONSTRAINT [PK_InvoiceLine] PRIMARY KEY ([InvoiceLineId]),
      FOREIGN KEY ([InvoiceId]) REFERENCES [Invoice] ([InvoiceId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
      FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
    CREATE TABLE [Playlist] ([PlaylistId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Playlist] PRIMARY KEY ([PlaylistId]));
    CREATE TABLE [PlaylistTrack] ([PlaylistId] INTEGER NOT NULL, [TrackId] INTEGER NOT NULL, CONSTRAINT [PK_PlaylistTrack] PRIMARY KEY ([PlaylistId], [TrackId]),
      FOREIGN KEY ([PlaylistId]) REFERENCES [Playlist] ([PlaylistId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
      FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
    INSERT INTO Artist VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
    INSERT INTO Album VALUES (1, 'For Those About To Rock', 1), (2, 'Balls to the Wall', 2), (3, 'Restless and Wild', 2), (4, 'Let There Be Rock', 1);
    INSERT INTO Employee VALUES (1, 'Adams', 'Andrew', NULL, '2002-08-14 00:00:00'), (2, 'Edwards', 'Nancy', 1, '2002-05-01 00:00:00'),
      (3, 'Peacock', 'Jane', 2, '2002-04-01 00:00:00'), (4, 'Park', 'Margaret', 2, '2003-05-03 00:00:00'), (5, 'Johnson', 'Steve', 2, '2003-10-17 00:00:00');
    INSERT INTO Customer VALUES (1, 'Luís', 'Gonçalves', 3), (2, 'Leonie', 'Köhler', 5), (3, 'François', 'Tremblay', 3), (4, 'Bjørn', 'Hansen', 4);
    INSERT INTO Genre VALUES (1, 'Rock'), (2, 'Jazz'), (3, 'Metal');
    INSERT INTO MediaType VALUES (1, 'MPEG audio file'), (2, 'Protected AAC audio file');
    INSERT INTO Track VALUES (1, 'For Those About To Rock', 1, 1, 1, 343719, 0.99), (2, 'Balls to the Wall', 2, 2, 1, 342562, 0.99),
      (3, 'Fast As a Shark', 3, 2, 1, 230619, 0.99), (4, 'Restless and Wild', 3, 2, 3, 252051, 0.99), (5, 'Let There Be Rock', 4, 1, 1, 366654, 0.99),
      (6, 'Jazz Thing', NULL, 1, 2, 100000, 1.99);
    INSERT INTO Invoice VALUES (1, 2, '2021-01-01 00:00:00', 'Stuttgart', 1.98), (2, 4, '2021-01-02 00:00:00', 'Oslo', 3.96), (3, 1, '2021-02-03 00:00:00', 'São José', 0.99);
    INSERT INTO InvoiceLine VALUES (1, 1, 2, 0.99, 1), (2, 1, 4, 0.99, 1), (3, 2, 1, 0.99, 1), (4, 2, 3, 0.99, 1), (5, 2, 5, 0.99, 2), (6, 3, 6, 0.99, 1);
    INSERT INTO Playlist VALUES (1, 'Music'), (2, 'Movies'), (3, 'Heavy Metal Classic');
    INSERT INTO PlaylistTrack VALUES (1, 1), (1, 2), (1, 3), (1, 5), (3, 4), (3, 3);
    """
