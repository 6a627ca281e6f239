-- One database per service on the shared PostgreSQL instance (tables are created by each service).
CREATE DATABASE catalog;
CREATE DATABASE accounts;
CREATE DATABASE orders;
CREATE DATABASE payments;
CREATE DATABASE inventory;
